"""PostgreSQL migration 5: ``arbiter_append_one``, the append function for a group of
one request (most appends), next to migration 4's ``arbiter_append_group``.

It does what ``arbiter_append_group`` does for one member - the same checks in the
same order, the same statuses, the same locks in the same order (stream row, tracking
row, counter), the same hash formula (:mod:`arbiter_store.integrity`) - but with
scalar parameters for the request, so that its statements' generic plans are cheap
and stay cached in the session (migration 4's function took about twice as long for
one request, apparently planning its statements over ``unnest`` of the parameter
arrays again on every call).  A single event is inserted
with ``VALUES`` and the result returned with ``RETURN NEXT``.  The migration also pins
``arbiter_append_group`` to generic plans for the same reason.
"""

from __future__ import annotations

from typing import Final

__all__ = ["APPEND_ONE_SQL"]

APPEND_ONE_SQL: Final = """
    CREATE FUNCTION arbiter_append_one(
        p_stream text, p_expected bigint, p_command text, p_consumer text,
        p_tracking bigint, p_types text[], p_schema_versions integer[],
        p_payloads bytea[], p_rules text[], p_metadata bytea[], p_pre bytea[],
        p_mid bytea[], p_end bytea[], p_channel text
    ) RETURNS TABLE (o_status text, o_a bigint, o_b bigint)
    LANGUAGE plpgsql AS $$
    DECLARE
        v_count   integer := cardinality(p_types);
        v_version bigint;
        v_head    text;
        v_base    bigint;
        v_next    bigint;
        v_text    text;
        v_hash    text[];
        e         integer;
    BEGIN
        -- 1. Lock the stream's row, creating it at version 0 if new.
        SELECT s.version, s.head_hash INTO v_version, v_head
            FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
        IF NOT FOUND THEN
            INSERT INTO streams (stream_id, version, head_hash)
                VALUES (p_stream, 0, repeat('0', 64)) ON CONFLICT (stream_id) DO NOTHING;
            SELECT s.version, s.head_hash INTO STRICT v_version, v_head
                FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
        END IF;
        -- 2. A repeated command id, the version, the tracking (as arbiter_append_group).
        IF p_command IS NOT NULL THEN
            SELECT c.first_version, c.last_version INTO o_a, o_b FROM commands c
                WHERE c.stream_id = p_stream AND c.command_id = p_command;
            IF FOUND THEN
                o_status := 'repeat';
                RETURN NEXT;
                RETURN;
            END IF;
        END IF;
        o_status := 'ok';
        IF v_version <> p_expected THEN
            o_status := 'conflict';
            o_a := v_version;
            IF p_consumer IS NOT NULL THEN  -- AlreadyProcessed comes first
                SELECT t.position INTO v_base FROM tracking t WHERE t.consumer = p_consumer;
                IF FOUND AND v_base >= p_tracking THEN
                    o_status := 'processed';
                    o_a := v_base;
                END IF;
            END IF;
        ELSIF p_consumer IS NOT NULL THEN
            INSERT INTO tracking AS t (consumer, position) VALUES (p_consumer, p_tracking)
                ON CONFLICT (consumer) DO UPDATE SET position = EXCLUDED.position
                WHERE t.position < EXCLUDED.position;
            IF NOT FOUND THEN
                o_status := 'processed';
                SELECT t.position INTO o_a FROM tracking t WHERE t.consumer = p_consumer;
            END IF;
        END IF;
        IF o_status <> 'ok' THEN
            IF v_version = 0 THEN  -- the row step 1 made for a new stream
                DELETE FROM streams s WHERE s.stream_id = p_stream;
            END IF;
            RETURN NEXT;
            RETURN;
        END IF;
        IF p_command IS NOT NULL THEN
            INSERT INTO commands (stream_id, command_id, first_version, last_version)
                VALUES (p_stream, p_command, p_expected + 1, p_expected + v_count);
        END IF;
        -- 3. The critical section: the counter row stays locked until COMMIT.
        UPDATE log_position SET last_position = last_position + v_count
            RETURNING last_position - v_count INTO STRICT v_base;
        v_next := v_base;
        v_hash := array_fill(NULL::text, ARRAY[v_count]);
        FOR e IN 1 .. v_count LOOP
            v_next := v_next + 1;
            v_text := v_next::text;
            v_head := encode(sha256(convert_to(v_head, 'UTF8') || p_pre[e]
                || 'i'::bytea || int8send(length(v_text)::bigint)
                || convert_to(v_text, 'UTF8') || p_mid[e] || p_payloads[e]
                || p_end[e] || p_metadata[e]), 'hex');
            v_hash[e] := v_head;
        END LOOP;
        IF v_count = 1 THEN
            INSERT INTO events (stream_id, version, position, type, schema_version,
                                payload, rule, metadata, hash)
                VALUES (p_stream, p_expected + 1, v_next, p_types[1], p_schema_versions[1],
                        p_payloads[1], p_rules[1], p_metadata[1], v_head);
        ELSE
            INSERT INTO events (stream_id, version, position, type, schema_version,
                                payload, rule, metadata, hash)
                SELECT p_stream, p_expected + u.n, v_base + u.n, u.t, u.sv, u.pl, u.r,
                       u.md, u.h
                FROM unnest(p_types, p_schema_versions, p_payloads, p_rules, p_metadata,
                            v_hash) WITH ORDINALITY AS u(t, sv, pl, r, md, h, n);
        END IF;
        UPDATE streams s SET version = p_expected + v_count, head_hash = v_head,
                first_position = COALESCE(s.first_position, v_base + 1)
            WHERE s.stream_id = p_stream;
        PERFORM pg_notify(p_channel, v_next::text);
        o_a := v_base;
        RETURN NEXT;
    END
    $$;
    ALTER FUNCTION arbiter_append_group SET plan_cache_mode = force_generic_plan;
"""
