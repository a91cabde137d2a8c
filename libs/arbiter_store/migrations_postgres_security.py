"""PostgreSQL migrations 6 and 7 (issue 14, see ``docs/security.md``).

6. Anchors get ``prev_version`` (the stream's anchor before, 0 for none) and ``final``
   (the end of the stream), part of their key beside the version, so a game that ends
   at a multiple of the anchoring interval gets its final anchor beside the periodic
   one; snapshots get ``head_hash`` (the chain hash of their version) and
   ``signature`` (their seal).  Rows from before keep NULLs / false (never rewritten).
7. The services' role: ``arbiter_services`` (NOLOGIN; created if missing, which needs
   CREATEROLE the first time) may read everything and append, but not UPDATE, DELETE
   or TRUNCATE events, commands or anchors; it may maintain the stream records, the
   position counter, tracking and snapshots (upserted and pruned).  Login roles of the
   services are made members of it (``GRANT arbiter_services TO ...``); the role that
   runs the migrations owns the tables.  Tables that later migrations create get
   SELECT and INSERT by default; a later migration grants whatever more it needs.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ANCHOR_CHAIN_SQL", "SERVICES_ROLE", "SERVICES_ROLE_SQL"]

#: The group role the services' database logins are members of.
SERVICES_ROLE: Final = "arbiter_services"

ANCHOR_CHAIN_SQL: Final = """
    ALTER TABLE anchors ADD COLUMN prev_version bigint CHECK (prev_version >= 0);
    ALTER TABLE anchors ADD COLUMN final boolean NOT NULL DEFAULT false;
    ALTER TABLE anchors DROP CONSTRAINT anchors_pkey;
    ALTER TABLE anchors ADD PRIMARY KEY (stream_id, version, final);
    ALTER TABLE snapshots ADD COLUMN head_hash text;
    ALTER TABLE snapshots ADD COLUMN signature text;
"""

SERVICES_ROLE_SQL: Final = f"""
    DO $$
    BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{SERVICES_ROLE}') THEN
            BEGIN
                CREATE ROLE {SERVICES_ROLE} NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                NULL;  -- created meanwhile by another schema's migration
            END;
        END IF;
    END
    $$;
    DO $$
    BEGIN
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO {SERVICES_ROLE}', current_schema());
        EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT, INSERT '
                       'ON TABLES TO {SERVICES_ROLE}', current_schema());
    END
    $$;
    REVOKE ALL ON events, commands, anchors, streams, log_position, tracking, snapshots,
        schema_migrations FROM PUBLIC;
    GRANT SELECT, INSERT ON events, commands, anchors TO {SERVICES_ROLE};
    GRANT SELECT, INSERT, UPDATE, DELETE ON streams, tracking, snapshots TO {SERVICES_ROLE};
    GRANT SELECT, UPDATE ON log_position TO {SERVICES_ROLE};
    GRANT SELECT ON schema_migrations TO {SERVICES_ROLE};
"""
