#!/usr/bin/env bash
# Build, test and package the service; a script an agent writes in one call.
# It runs from the repository root, writes only under ./dist and build.log, and asks nothing of the network but git and docker.
# Exit status 0 on success, 1 on a failed build.
set -euo pipefail

APP=service
VERSION=$(git describe --tags --always 2>/dev/null || echo dev)
OUT="./dist/$APP-$VERSION"
LOG=build.log
GOFLAGS="-trimpath -mod=readonly"
export GOFLAGS CGO_ENABLED=0

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$LOG"; }
die() { log "error: $*"; exit 1; }

log "building $APP $VERSION"
mkdir -p "$OUT" ./dist/logs
rm -rf "./dist/$APP-"*.tmp

for dir in cmd/server cmd/worker cmd/migrate; do
  name=${dir##*/}
  log "compiling $name"
  go build -o "$OUT/$name" "./$dir" 2>&1 | tee -a "$LOG" | grep -v '^#' || die "build of $name failed"
done

log "vetting"
go vet ./... 2>&1 | grep -v '^ok' | tee -a "$LOG" || true
gofmt -l . | grep -v '^vendor/' | while read -r f; do
  log "needs gofmt: $f"
done

log "testing"
pkgs=$(go list ./... | grep -v /integration | grep -v /vendor/)
go test -count=1 -race -coverprofile=cover.out $pkgs 2>&1 | tee -a "$LOG" | tail -n 40
total=$(go tool cover -func=cover.out | awk '/^total:/ {print $3}' | tr -d '%')
log "coverage: ${total}%"
if [ "${total%.*}" -lt 70 ]; then
  log "coverage under 70%"
fi

for f in config/*.yaml; do
  [ -e "$f" ] || continue
  base=${f##*/}
  sed -e "s/@VERSION@/$VERSION/g" -e "s/@APP@/$APP/g" "$f" > "$OUT/${base%.yaml}.yml"
done

cat > "$OUT/README.txt" <<NOTES
$APP $VERSION
Built on $(uname -s) with $(go version | cut -d' ' -f3).
Run ./server --config server.yml; the worker reads the same file.
NOTES

log "checksums"
( cd "$OUT" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum > SHA256SUMS )
head -n 5 "$OUT/SHA256SUMS" | cut -c1-16

log "archive"
tar -C ./dist -czf "./dist/$APP-$VERSION.tar.gz" "$APP-$VERSION"
ls -lh ./dist | awk 'NR>1 {print $5, $9}' | sort -k2

log "docker image"
if command -v docker >/dev/null 2>&1; then
  docker build -t "$APP:$VERSION" --build-arg VERSION="$VERSION" . 2>&1 | tail -n 5
  docker image ls "$APP" --format '{{.Repository}}:{{.Tag}} {{.Size}}' | head -n 3
else
  log "docker not found; skipping the image"
fi

log "integration"
if [ -d integration ]; then
  for t in integration/*_test.go; do
    log "$(basename "$t"): $(grep -c '^func Test' "$t" || true) tests"
  done
  go test -count=1 -tags integration ./integration/... 2>&1 | tee -a "$LOG" | grep -E '^(ok|FAIL|---)' | sort | uniq -c
fi

log "changelog"
prev=$(git describe --tags --abbrev=0 HEAD^ 2>/dev/null || git rev-list --max-parents=0 HEAD)
git log --no-merges --format='- %s (%h)' "$prev..HEAD" | grep -v -i 'wip' | head -n 50 > "$OUT/CHANGES.md"
wc -l "$OUT/CHANGES.md" | awk '{print $1, "changes"}'

log "size report"
for bin in "$OUT"/server "$OUT"/worker "$OUT"/migrate; do
  [ -f "$bin" ] || continue
  printf '%-10s %8d bytes\n' "$(basename "$bin")" "$(stat -c %s "$bin")" | tee -a "$LOG"
done
du -sh "$OUT" | cut -f1

log "lint summary"
grep -c 'needs gofmt' "$LOG" | xargs -I{} echo "{} files need gofmt"
grep -E 'warning|deprecated' "$LOG" | sort | uniq -c | sort -rn | head -n 10

log "dependencies"
go list -m -u -json all 2>/dev/null | grep -E '"(Path|Version)"' | paste - - | awk '{print $2, $4}' | tr -d '",' | head -n 30 > ./dist/logs/deps.txt
outdated=$(go list -m -u all | grep -c '\[' || true)
log "outdated modules: $outdated"
for mod in $(awk '{print $1}' ./dist/logs/deps.txt | head -n 5); do
  log "module $mod"
done
licenses=$(find . -name 'LICENSE*' -not -path './dist/*' | wc -l)
log "license files: $licenses"
case "$VERSION" in
  v*) log "release build" ;;
  *) log "development build" ;;
esac

log "ports"
for port in 8080 8081 9090; do
  if ss -ltn | awk '{print $4}' | grep -q ":$port\$"; then
    log "port $port is busy"
  fi
done
env | grep -E '^(GO|CGO)' | sort | tee -a "$LOG" >/dev/null

log "cleanup"
find ./dist -name '*.tmp' -type f -mmin +60 -delete
rm -f cover.out
git status --short | grep -v '^??' | head -n 20
log "done: $OUT"
echo "artifacts in $OUT"
