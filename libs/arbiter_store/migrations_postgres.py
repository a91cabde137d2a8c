"""The PostgreSQL migrations (see :mod:`arbiter_store.migrations`).  Never edit a
released migration: append a new one."""

from __future__ import annotations

from typing import Final, NamedTuple

from .migrations_postgres_one import APPEND_ONE_SQL
from .migrations_postgres_security import ANCHOR_CHAIN_SQL, SERVICES_ROLE_SQL

__all__ = ["POSTGRES_MIGRATIONS", "Migration"]


class Migration(NamedTuple):
    version: int
    name: str
    sql: str


POSTGRES_MIGRATIONS: Final = (
    Migration(1, "event log", """
        CREATE TABLE events (
            position       bigint  PRIMARY KEY CHECK (position >= 1),
            stream_id      text    NOT NULL,
            version        bigint  NOT NULL CHECK (version >= 1),
            type           text    NOT NULL,
            schema_version integer NOT NULL,
            payload        bytea   NOT NULL,
            rule           text,
            metadata       bytea   NOT NULL,
            hash           text    NOT NULL,
            UNIQUE (stream_id, version)
        );
        CREATE TABLE streams (
            stream_id      text   PRIMARY KEY,
            version        bigint NOT NULL CHECK (version >= 0),
            head_hash      text   NOT NULL,
            first_position bigint UNIQUE
        );
        -- The global position counter: one row.  An append locks it (UPDATE) only
        -- to assign its positions, and holds it until it commits.
        CREATE TABLE log_position (
            singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            last_position bigint  NOT NULL CHECK (last_position >= 0)
        );
        INSERT INTO log_position (singleton, last_position) VALUES (true, 0);
    """),
    Migration(2, "commands, tracking, snapshots, anchors", """
        CREATE TABLE commands (
            stream_id     text   NOT NULL,
            command_id    text   NOT NULL,
            first_version bigint NOT NULL,
            last_version  bigint NOT NULL,
            PRIMARY KEY (stream_id, command_id)
        );
        CREATE TABLE tracking (
            consumer text   PRIMARY KEY,
            position bigint NOT NULL CHECK (position >= 1)
        );
        CREATE TABLE snapshots (
            stream_id  text    NOT NULL,
            version    bigint  NOT NULL CHECK (version >= 1),
            state      bytea   NOT NULL,
            state_hash text    NOT NULL,
            created    text    NOT NULL,
            PRIMARY KEY (stream_id, version)
        );
        CREATE TABLE anchors (
            stream_id text   NOT NULL,
            version   bigint NOT NULL CHECK (version >= 1),
            head_hash text   NOT NULL,
            signature text   NOT NULL,
            created   text   NOT NULL,
            PRIMARY KEY (stream_id, version)
        );
    """),
    Migration(3, "append function", """
        -- One append (see arbiter_store.postgres), hashing each event as
        -- arbiter_store.integrity does.  Errors: AR001 = version conflict,
        -- AR002 = tracking already processed (DETAIL: the stored version / position).
        CREATE FUNCTION arbiter_append(
            p_stream text, p_expected bigint, p_command text, p_consumer text,
            p_tracking bigint, p_types text[], p_schema_versions integer[],
            p_payloads bytea[], p_rules text[], p_metadata bytea[], p_channel text
        ) RETURNS TABLE (
            o_stream_id text, o_version bigint, o_position bigint, o_type text,
            o_schema_version integer, o_payload bytea, o_rule text, o_metadata bytea,
            o_hash text
        ) LANGUAGE plpgsql AS $$
        DECLARE
            v_count  integer := cardinality(p_types);
            v_actual bigint;
            v_head   text;
            v_first  bigint;
            v_last   bigint;
            v_base   bigint;
            v_hashes text[] := '{}';
            -- for the hash chain: see arbiter_store.integrity (Python checks it in verify)
            v_domain bytea := decode('617262697465722d6576656e742d763100', 'hex');
            v_stream bytea := convert_to(p_stream, 'UTF8');
            v_field  bytea;
            v_rule   bytea;
        BEGIN
            -- Phase 1, concurrent with appends to other streams: lock the stream's row
            -- (created at version 0 if new; an error rolls that back).
            INSERT INTO streams (stream_id, version, head_hash)
                VALUES (p_stream, 0, repeat('0', 64)) ON CONFLICT (stream_id) DO NOTHING;
            SELECT s.version, s.head_hash INTO STRICT v_actual, v_head
                FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
            IF p_command IS NOT NULL THEN
                SELECT c.first_version, c.last_version INTO v_first, v_last
                    FROM commands c WHERE c.stream_id = p_stream AND c.command_id = p_command;
                IF FOUND THEN  -- a repeated command: its earlier events, nothing written
                    RETURN QUERY SELECT e.stream_id, e.version, e.position, e.type,
                            e.schema_version, e.payload, e.rule, e.metadata, e.hash
                        FROM events e WHERE e.stream_id = p_stream
                        AND e.version BETWEEN v_first AND v_last ORDER BY e.version;
                    RETURN;
                END IF;
            END IF;
            IF p_consumer IS NOT NULL THEN
                INSERT INTO tracking AS t (consumer, position) VALUES (p_consumer, p_tracking)
                    ON CONFLICT (consumer) DO UPDATE SET position = EXCLUDED.position
                    WHERE t.position < EXCLUDED.position;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'consumer % already processed position %',
                        p_consumer, p_tracking USING ERRCODE = 'AR002', DETAIL = (
                        SELECT t.position FROM tracking t WHERE t.consumer = p_consumer)::text;
                END IF;
            END IF;
            IF v_actual <> p_expected THEN
                RAISE EXCEPTION 'stream % is at version %, not %', p_stream, v_actual,
                    p_expected USING ERRCODE = 'AR001', DETAIL = v_actual::text;
            END IF;
            IF p_command IS NOT NULL THEN
                INSERT INTO commands (stream_id, command_id, first_version, last_version)
                    VALUES (p_stream, p_command, p_expected + 1, p_expected + v_count);
            END IF;
            -- Phase 2, the critical section: the counter row stays locked until COMMIT.
            UPDATE log_position SET last_position = last_position + v_count
                RETURNING last_position - v_count INTO STRICT v_base;
            FOR i IN 1 .. v_count LOOP
                -- sha256(prev || domain || frames), frame = tag || int8 length || bytes
                v_field := convert_to(p_types[i], 'UTF8');
                v_rule := CASE WHEN p_rules[i] IS NULL THEN 'n'::bytea || int8send(0)
                    ELSE 's'::bytea || int8send(octet_length(convert_to(p_rules[i], 'UTF8')))
                         || convert_to(p_rules[i], 'UTF8') END;
                v_head := encode(sha256(convert_to(v_head, 'UTF8') || v_domain
                    || 's'::bytea || int8send(octet_length(v_stream)) || v_stream
                    || 'i'::bytea || int8send(length((p_expected + i)::text))
                    || convert_to((p_expected + i)::text, 'UTF8')
                    || 'i'::bytea || int8send(length((v_base + i)::text))
                    || convert_to((v_base + i)::text, 'UTF8')
                    || 's'::bytea || int8send(octet_length(v_field)) || v_field
                    || 'i'::bytea || int8send(length(p_schema_versions[i]::text))
                    || convert_to(p_schema_versions[i]::text, 'UTF8')
                    || 'b'::bytea || int8send(octet_length(p_payloads[i])) || p_payloads[i]
                    || v_rule
                    || 'b'::bytea || int8send(octet_length(p_metadata[i])) || p_metadata[i]
                    ), 'hex');
                v_hashes := v_hashes || v_head;
            END LOOP;
            RETURN QUERY INSERT INTO events AS e (stream_id, version, position, type,
                    schema_version, payload, rule, metadata, hash)
                SELECT p_stream, p_expected + n, v_base + n, p_types[n], p_schema_versions[n],
                       p_payloads[n], p_rules[n], p_metadata[n], v_hashes[n]
                FROM generate_series(1, v_count) AS n
                RETURNING e.stream_id, e.version, e.position, e.type, e.schema_version,
                          e.payload, e.rule, e.metadata, e.hash;
            UPDATE streams s SET version = p_expected + v_count, head_hash = v_head,
                    first_position = COALESCE(s.first_position, v_base + 1)
                WHERE s.stream_id = p_stream;
            PERFORM pg_notify(p_channel, (v_base + v_count)::text);
        END
        $$;
    """),
    Migration(4, "grouped append", """
        -- Appends a group of batches to distinct streams, for distinct consumers, in one
        -- transaction (see arbiter_store.postgres and arbiter_store.combiner).  Events
        -- are flat arrays in member order (p_counts per member).  The hash input of each
        -- event comes from the client except its position (see
        -- arbiter_store.integrity.hash_parts):
        --   sha256(prev || pre || frame(position) || mid || payload || end || metadata).
        -- A failed check raises nothing: one row per member, in order, says 'ok'
        -- (a = the position before its first event), 'repeat' (a, b = the versions
        -- written by the earlier append of its command id), 'conflict' (a = the stream's
        -- version) or 'processed' (a = the consumer's recorded position); only 'ok'
        -- members write anything.  Locks are taken in one global order - stream rows
        -- by id bytes, then tracking rows by consumer bytes, then the counter - so
        -- concurrent groups cannot deadlock: callers pass the members sorted by stream
        -- id (code points, i.e. UTF-8 bytes) and p_order, the member numbers sorted by
        -- consumer (members without one last).
        CREATE FUNCTION arbiter_append_group(
            p_streams text[], p_expected bigint[], p_commands text[], p_consumers text[],
            p_trackings bigint[], p_counts integer[], p_order integer[], p_types text[],
            p_schema_versions integer[], p_payloads bytea[], p_rules text[],
            p_metadata bytea[], p_pre bytea[], p_mid bytea[], p_end bytea[], p_channel text
        ) RETURNS TABLE (o_status text, o_a bigint, o_b bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            v_members integer := cardinality(p_streams);
            v_events  integer := cardinality(p_types);
            v_version bigint[] := array_fill(NULL::bigint, ARRAY[v_members]);
            v_heads   text[] := array_fill(NULL::text, ARRAY[v_members]);
            v_status  text[] := array_fill('ok'::text, ARRAY[v_members]);
            v_a       bigint[] := array_fill(NULL::bigint, ARRAY[v_members]);
            v_b       bigint[] := array_fill(NULL::bigint, ARRAY[v_members]);
            v_stream  text[] := array_fill(NULL::text, ARRAY[v_events]);
            v_evver   bigint[] := array_fill(NULL::bigint, ARRAY[v_events]);
            v_pos     bigint[] := array_fill(NULL::bigint, ARRAY[v_events]);
            v_hash    text[] := array_fill(NULL::text, ARRAY[v_events]);
            v_new     bigint[] := array_fill(NULL::bigint, ARRAY[v_members]);
            v_total   bigint := 0;
            v_next    bigint;
            v_base    bigint;
            v_first   integer := 1;
            v_one     bigint;
            v_two     bigint;
            v_head    text;
            v_text    text;
            m         integer;
            e         integer;
        BEGIN
            -- 1. Lock each stream's row, creating it at version 0 if new.
            FOR m IN 1 .. v_members LOOP
                SELECT s.version, s.head_hash INTO v_one, v_head
                    FROM streams s WHERE s.stream_id = p_streams[m] FOR UPDATE;
                IF NOT FOUND THEN
                    INSERT INTO streams (stream_id, version, head_hash)
                        VALUES (p_streams[m], 0, repeat('0', 64))
                        ON CONFLICT (stream_id) DO NOTHING;
                    SELECT s.version, s.head_hash INTO STRICT v_one, v_head
                        FROM streams s WHERE s.stream_id = p_streams[m] FOR UPDATE;
                END IF;
                v_version[m] := v_one;
                v_heads[m] := v_head;
            END LOOP;
            -- 2. Check each member: a repeated command id, the tracking, the version.
            FOREACH m IN ARRAY p_order LOOP
                IF p_commands[m] IS NOT NULL THEN
                    SELECT c.first_version, c.last_version INTO v_one, v_two FROM commands c
                        WHERE c.stream_id = p_streams[m] AND c.command_id = p_commands[m];
                    IF FOUND THEN
                        v_status[m] := 'repeat';
                        v_a[m] := v_one;
                        v_b[m] := v_two;
                        CONTINUE;
                    END IF;
                END IF;
                IF v_version[m] <> p_expected[m] THEN
                    v_status[m] := 'conflict';
                    v_a[m] := v_version[m];
                    IF p_consumers[m] IS NOT NULL THEN  -- AlreadyProcessed comes first
                        SELECT t.position INTO v_one FROM tracking t
                            WHERE t.consumer = p_consumers[m];
                        IF FOUND AND v_one >= p_trackings[m] THEN
                            v_status[m] := 'processed';
                            v_a[m] := v_one;
                        END IF;
                    END IF;
                ELSIF p_consumers[m] IS NOT NULL THEN
                    INSERT INTO tracking AS t (consumer, position)
                        VALUES (p_consumers[m], p_trackings[m])
                        ON CONFLICT (consumer) DO UPDATE SET position = EXCLUDED.position
                        WHERE t.position < EXCLUDED.position;
                    IF NOT FOUND THEN
                        v_status[m] := 'processed';
                        SELECT t.position INTO v_one FROM tracking t
                            WHERE t.consumer = p_consumers[m];
                        v_a[m] := v_one;
                    END IF;
                END IF;
                IF v_status[m] <> 'ok' THEN
                    IF v_version[m] = 0 THEN  -- the row step 1 made for a new stream
                        DELETE FROM streams s WHERE s.stream_id = p_streams[m];
                    END IF;
                    CONTINUE;
                END IF;
                IF p_commands[m] IS NOT NULL THEN
                    INSERT INTO commands (stream_id, command_id, first_version, last_version)
                        VALUES (p_streams[m], p_commands[m], p_expected[m] + 1,
                                p_expected[m] + p_counts[m]);
                END IF;
                v_total := v_total + p_counts[m];
            END LOOP;
            -- 3. The critical section: the counter row stays locked until COMMIT.
            IF v_total > 0 THEN
                UPDATE log_position SET last_position = last_position + v_total
                    RETURNING last_position - v_total INTO STRICT v_base;
                v_next := v_base;
                FOR m IN 1 .. v_members LOOP
                    IF v_status[m] = 'ok' THEN
                        v_a[m] := v_next;
                        v_head := v_heads[m];
                        FOR e IN v_first .. v_first + p_counts[m] - 1 LOOP
                            v_next := v_next + 1;
                            v_text := v_next::text;
                            v_head := encode(sha256(convert_to(v_head, 'UTF8') || p_pre[e]
                                || 'i'::bytea || int8send(length(v_text)::bigint)
                                || convert_to(v_text, 'UTF8') || p_mid[e] || p_payloads[e]
                                || p_end[e] || p_metadata[e]), 'hex');
                            v_stream[e] := p_streams[m];
                            v_evver[e] := p_expected[m] + 1 + e - v_first;
                            v_pos[e] := v_next;
                            v_hash[e] := v_head;
                        END LOOP;
                        v_new[m] := p_expected[m] + p_counts[m];
                        v_heads[m] := v_head;
                    END IF;
                    v_first := v_first + p_counts[m];
                END LOOP;
                UPDATE streams s SET version = u.v, head_hash = u.h,
                        first_position = COALESCE(s.first_position, u.a + 1)
                    FROM unnest(p_streams, v_new, v_heads, v_a) AS u(id, v, h, a)
                    WHERE s.stream_id = u.id AND u.v IS NOT NULL;
                INSERT INTO events (stream_id, version, position, type, schema_version,
                                    payload, rule, metadata, hash)
                    SELECT u.s, u.v, u.p, u.t, u.sv, u.pl, u.r, u.md, u.h
                    FROM unnest(v_stream, v_evver, v_pos, p_types, p_schema_versions,
                                p_payloads, p_rules, p_metadata, v_hash)
                        AS u(s, v, p, t, sv, pl, r, md, h)
                    WHERE u.p IS NOT NULL;
                PERFORM pg_notify(p_channel, (v_base + v_total)::text);
            END IF;
            RETURN QUERY SELECT v_status[i], v_a[i], v_b[i]
                FROM generate_series(1, v_members) AS i ORDER BY i;
        END
        $$;
    """),
    Migration(5, "single-request append", APPEND_ONE_SQL),
    Migration(6, "anchor chain and end marks, snapshots bound to the chain", ANCHOR_CHAIN_SQL),
    Migration(7, "the services' role", SERVICES_ROLE_SQL),
)
