#!/usr/bin/env bash
# Makes sure a PostgreSQL answers for `make run`. When none answers at the
# default address but the server binaries are installed, it starts a private
# cluster under $JANGADA_DATA_DIR/postgres on port 5432 (trust auth, user
# postgres), so a fresh machine with Go and PostgreSQL's packages still works.
set -euo pipefail
DATA_DIR="${JANGADA_DATA_DIR:-./.data}"
if [ -n "${JANGADA_DATABASE_URL:-}" ]; then exit 0; fi
if command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then exit 0; fi
bindir=""
for d in $(command -v initdb 2>/dev/null | xargs -r dirname) /usr/lib/postgresql/*/bin; do
  if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir="$d"; fi
done
if [ -z "$bindir" ]; then
  echo "No PostgreSQL answers at 127.0.0.1:5432 and initdb/pg_ctl are not installed." >&2
  echo "Install PostgreSQL or set JANGADA_DATABASE_URL." >&2
  exit 1
fi
mkdir -p "$DATA_DIR"
pgdata="$(cd "$DATA_DIR" && pwd)/postgres"
as_pg=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: run the private cluster as the postgres user.
  id postgres >/dev/null 2>&1 || useradd --system --home "$pgdata" postgres
  as_pg=(runuser -u postgres --)
  mkdir -p "$pgdata"; chown postgres "$pgdata"
fi
if [ ! -f "$pgdata/PG_VERSION" ]; then
  echo "Starting a private PostgreSQL cluster in $pgdata"
  "${as_pg[@]}" "$bindir/initdb" -D "$pgdata" -U postgres --auth=trust >/dev/null
fi
"${as_pg[@]}" "$bindir/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -o "-p 5432 -k /tmp -c listen_addresses=127.0.0.1" -w start
