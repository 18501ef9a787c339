#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: `bash .ci/postgres.sh start|restart|stop`.
#
# `start` creates a cluster in $TIKAL_TEST_PG_DIR (default /tmp/tikal-pg) on first use,
# starts it on 127.0.0.1:$TIKAL_TEST_PG_PORT (default 54329) with trust authentication for
# local connections only, creates the database `tikal_test` and prints its URL (the tests
# read it from TIKAL_TEST_PG).  `restart` is what the tests call to restart the server
# during play.  Needs the Debian package `postgresql` (initdb, pg_ctl); as root the server
# runs as the `postgres` user, since PostgreSQL refuses to run as root.
set -euo pipefail

dir="$(realpath -m "${TIKAL_TEST_PG_DIR:-${TMPDIR:-/tmp}/tikal-pg}")"
cd /  # the postgres user may not be allowed into the current directory
port="${TIKAL_TEST_PG_PORT:-54329}"
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
if [ -z "$bindir" ]; then
    echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2
    exit 1
fi

as_pg() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_ctl() {
    as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 "$@" >&2
}

create() {
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_pg "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
CONF
}

case "${1:-start}" in
start)
    [ -f "$dir/data/PG_VERSION" ] || create
    as_pg "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 || pg_ctl start
    if ! as_pg "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
            "SELECT 1 FROM pg_database WHERE datname = 'tikal_test'" | grep -q 1; then
        as_pg "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres tikal_test
    fi
    echo "postgresql://postgres@127.0.0.1:$port/tikal_test"
    ;;
restart) pg_ctl restart -m fast ;;
stop) pg_ctl stop -m fast ;;
*) echo "usage: $0 start|restart|stop" >&2; exit 2 ;;
esac
