#!/bin/sh
# PostgreSQL's first start (docker-entrypoint-initdb.d; compose and the k8s dev overlay),
# as the bootstrap superuser: the roles of docs/security.md. The owner role owns the
# database and runs the migrations (`arbiter db upgrade`); the services' login role is a
# member of the group role arbiter_services, to which the store's own migrations grant
# what the services may do (INSERT and SELECT on events, never UPDATE or DELETE).
set -eu
: "${ARBITER_DB:?}" "${ARBITER_OWNER_ROLE:?}" "${ARBITER_OWNER_PASSWORD:?}"
: "${ARBITER_APP_ROLE:?}" "${ARBITER_APP_PASSWORD:?}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
     -v db="$ARBITER_DB" -v owner="$ARBITER_OWNER_ROLE" -v owner_pw="$ARBITER_OWNER_PASSWORD" \
     -v app="$ARBITER_APP_ROLE" -v app_pw="$ARBITER_APP_PASSWORD" <<'SQL'
CREATE ROLE :"owner" LOGIN PASSWORD :'owner_pw' NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE DATABASE :"db" OWNER :"owner";
SELECT 'CREATE ROLE arbiter_services NOLOGIN'
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'arbiter_services') \gexec
CREATE ROLE :"app" LOGIN PASSWORD :'app_pw' NOSUPERUSER NOCREATEDB NOCREATEROLE
  IN ROLE arbiter_services;
GRANT CONNECT ON DATABASE :"db" TO arbiter_services;
\connect :"db"
GRANT USAGE ON SCHEMA public TO arbiter_services;
SQL
