# Sourced by .ci/run: a throwaway PostgreSQL cluster for the tests. Installs Debian's postgresql when
# missing, runs initdb + pg_ctl in a temporary folder on a free loopback port (as the unprivileged
# `postgres` user when running as root: initdb refuses root), exports TEST_DATABASE_URL, and stops
# and removes the cluster on exit.

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

start_test_postgres() {
  if [ -z "$(pg_bin)" ]; then
    log "apt-get install postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  fi
  local bin; bin="$(pg_bin)"
  PG_TEST_DIR="$(mktemp -d /tmp/reviews-pg.XXXXXX)"
  local port; port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  local as=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    chown postgres "$PG_TEST_DIR"
    as=(runuser -u postgres --)
  fi
  PG_TEST_AS=("${as[@]}")
  PG_TEST_CTL="$bin/pg_ctl"
  trap stop_test_postgres EXIT
  "${as[@]}" "$bin/initdb" -D "$PG_TEST_DIR/data" -A trust -U postgres --no-sync >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/log" -w \
    -o "-p $port -k $PG_TEST_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
  "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres reviews_test
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/reviews_test"
}

stop_test_postgres() {
  if [ -n "${PG_TEST_DIR:-}" ] && [ -d "$PG_TEST_DIR" ]; then
    "${PG_TEST_AS[@]}" "$PG_TEST_CTL" -D "$PG_TEST_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_TEST_DIR"
  fi
}
