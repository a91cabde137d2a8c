#!/bin/sh
# PostgreSQL's first start (docker-entrypoint-initdb.d; compose and the k8s dev overlay):
# the services' login role beside the owner role (POSTGRES_USER, who owns the database
# and runs the migrations). What the services' role may do on the store's tables
# (INSERT and SELECT on events, never UPDATE or DELETE) is granted by the store's own
# migrations (`arbiter db upgrade`), not here. See docs/deploy.md.
set -eu
: "${ARBITER_APP_ROLE:?}" "${ARBITER_APP_PASSWORD:?}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
     -v role="$ARBITER_APP_ROLE" -v password="$ARBITER_APP_PASSWORD" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
GRANT CONNECT ON DATABASE :"DBNAME" TO :"role";
GRANT USAGE ON SCHEMA public TO :"role";
SQL
