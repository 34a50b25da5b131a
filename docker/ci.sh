#!/usr/bin/env bash
# docker/ci.sh: builds the lab image offline and exercises it.
#
#  1. installs docker.io and debootstrap (apt), starts a dockerd of its own
#     (state under $CREDLAB_CI_CACHE/docker, sockets under a temp folder, no
#     bridge and no iptables rules: builds use --network host, runs --network none/host);
#  2. makes the local base image with debootstrap (cached as a tar);
#  3. prepares the build-context stand-ins in docker/offline/: the Go 1.24.13
#     toolchain from the module cache and a file module proxy with the
#     library's and the kernel's modules (cached);
#  4. builds docker/Dockerfile with the offline arguments and --network host
#     (the build itself runs the OpenBLAS self-check and every notebook once);
#  5. runs the self-check and every notebook inside the image in quick mode, --network none
#     (the executed copies are left in out/docker-notebooks);
#     and checks both kernels (notebooks/check-kernels);
#  6. starts the notebook server in a container on 127.0.0.1 and checks with
#     curl that /api/contents answers with the token and lists the notebooks,
#     that both kernelspecs are there, that requests without (or with a wrong)
#     token are refused, and that a generated token is printed at start;
#  7. opens every notebook of that server in headless Chromium
#     (docker/browser/check.js): trusted, every stored figure drawn as SVG, no
#     raw SVG text, the HTML export keeps the figures; screenshots in out/browser;
#  8. runs README's run command with a work folder of root and of uid 1234
#     (the server runs as that uid); as uid 1234 makes a notebook per kernel in
#     the browser, restarts the container and reopens it (trusted, figures
#     drawn), then without its signature (untrusted, figures still drawn)
#     (docker/browser/usernb.js; screenshots in out/browser-usernb);
#  9. stops the daemon and cleans up, keeping the caches; prints the image size
#     and the time of every step.
#
# Needs root (apt, dockerd, debootstrap) and Go on PATH or in /usr/local/go.
# Environment:
#   CREDLAB_CI_CACHE        cache folder outside the clone (default /var/cache/credlab-ci)
#   CREDLAB_CI_BASE_MAXAGE  days before the debootstrap base is remade (default 30)
#   CREDLAB_DATA            datasets, mounted read-only at /data for the notebooks
#                           (default ../shared/data beside the clone, when present)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export PATH="/usr/local/go/bin:$PATH"
cache=${CREDLAB_CI_CACHE:-/var/cache/credlab-ci}
image=credlab-lab # the tag README.md and docker/README.md use
base=local/debian:bookworm
mirror=http://deb.debian.org/debian
offline=$repo/docker/offline

t0=$(date +%s)
timings=()
step_name=
step_start=$t0
step() {
	local now
	now=$(date +%s)
	[ -n "$step_name" ] && timings+=("$(printf '%5d s  %s' $((now - step_start)) "$step_name")")
	step_name=$1
	step_start=$now
	[ -n "$1" ] && printf '\n== docker/ci.sh: %s\n' "$1"
	return 0
}
say() { printf 'docker/ci.sh: %s\n' "$*"; }

step "system packages (docker.io, debootstrap)"
if ! [ -x /usr/sbin/dockerd ] || ! [ -x /usr/bin/docker ] || ! command -v debootstrap >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq docker.io debootstrap >/dev/null
fi
go version

mkdir -p "$cache"
# One run at a time per cache: the daemon's data root lives there.
exec 9>"$cache/lock"
if ! flock -n 9; then say "waiting for another docker/ci.sh run to finish"; flock 9; fi

tmp=$(mktemp -d /tmp/credlab-ci.XXXXXX) # short: it holds unix sockets
# A copy of everything printed, so that a failure can repeat its step's last
# lines at the very end, where a CI log that keeps only its tail shows them.
exec > >(tee -a "$tmp/out.log") 2>&1
teepid=$!
export DOCKER_HOST=unix://$tmp/docker.sock DOCKER_CONFIG=$tmp/client DOCKER_BUILDKIT=0
docker=/usr/bin/docker # Debian's client, matching Debian's daemon
containers=()

# The stand-ins are hard links into the caches; their folders may be read-only.
clean_offline() {
	local d
	for d in "$offline/go" "$offline/goproxy"; do
		[ -e "$d" ] || continue
		find "$d" -type d -exec chmod u+w {} + 2>/dev/null || true
		rm -rf "$d"
	done
}

# teardown: removes our containers, stops our daemon by its pid, removes the
# stand-ins and the temp folder. Caches (data root, base tar, modules) stay.
teardown() {
	local pid ok=0
	set +e
	for c in "${containers[@]}"; do "$docker" rm -f "$c" >/dev/null 2>&1; done
	if [ -s "$tmp/dockerd.pid" ]; then
		# Layers of older builds; tagged images (the base, $image, $image-go) stay.
		"$docker" image prune -f >/dev/null 2>&1
		pid=$(cat "$tmp/dockerd.pid")
		kill "$pid" 2>/dev/null
		for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
		if kill -0 "$pid" 2>/dev/null; then say "dockerd $pid did not stop in 60 s; killing it"; kill -9 "$pid"; ok=1; fi
	fi
	# dockerd leaves its netns bind mount (exec-root/netns/default) behind.
	awk -v p="$tmp/" 'index($2, p) == 1 {print $2}' /proc/self/mounts | sort -r | xargs -r -n1 umount -l
	clean_offline
	rm -rf "$tmp"
	set -e
	return $ok
}
on_exit() {
	local rc=$?
	trap - EXIT
	if [ $rc -ne 0 ]; then
		tail -n 60 "$tmp/out.log" >"$tmp/out.tail" 2>/dev/null || true
		if [ -s "$tmp/dockerd.log" ]; then
			say "FAILED; last lines of the daemon's log:"; tail -n 10 "$tmp/dockerd.log"
		fi
		say "FAILED (exit $rc) in step \"$step_name\"; its last lines of output:"
		sed 's/^/  | /' "$tmp/out.tail" 2>/dev/null || true
		say "FAILED (exit $rc) in step \"$step_name\""
	fi
	teardown || true
	exec >&- 2>&-
	wait "$teepid" 2>/dev/null || true
	exit $rc
}
trap on_exit EXIT
trap 'exit 130' INT TERM

step "start dockerd"
mkdir -p "$cache/docker" "$tmp/exec" "$tmp/client"
/usr/sbin/dockerd --data-root "$cache/docker" --exec-root "$tmp/exec" --pidfile "$tmp/dockerd.pid" \
	-H "$DOCKER_HOST" --bridge=none --iptables=false --ip6tables=false >"$tmp/dockerd.log" 2>&1 &
for i in $(seq 120); do
	"$docker" info >/dev/null 2>&1 && break
	kill -0 $! 2>/dev/null || { say "dockerd exited:"; tail -n 30 "$tmp/dockerd.log"; exit 1; }
	sleep 1
done
"$docker" info --format 'docker {{.ServerVersion}}, storage {{.Driver}}, data root {{.DockerRootDir}}'

step "base image ($base, debootstrap)"
tar_file=$cache/debian-bookworm-minbase.tar
if [ -s "$tar_file" ] && [ -z "$(find "$tar_file" -mtime +"${CREDLAB_CI_BASE_MAXAGE:-30}")" ]; then
	say "using $tar_file"
else
	rootfs=$tmp/rootfs
	debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$tmp/debootstrap.log"; exit 1; }
	# The sources of the public debian:bookworm image: updates and security too.
	rm -f "$rootfs/etc/apt/sources.list"
	cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<-EOF
	Types: deb
	URIs: $mirror
	Suites: bookworm bookworm-updates
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

	Types: deb
	URIs: http://deb.debian.org/debian-security
	Suites: bookworm-security
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb
	: >"$rootfs/etc/resolv.conf"
	tar -C "$rootfs" --numeric-owner -cf "$tar_file.tmp" .
	mv "$tar_file.tmp" "$tar_file"
	rm -rf "$rootfs"
fi
# Import only when the tar changed, so that the build's layer cache stays valid.
key=$(stat -c '%s-%Y' "$tar_file")
if [ "$("$docker" image inspect -f '{{index .Config.Labels "credlab.base"}}' "$base" 2>/dev/null)" != "$key" ]; then
	"$docker" import --change "LABEL credlab.base=$key" --change 'CMD ["bash"]' "$tar_file" "$base"
fi
"$docker" image ls "$base"

step "build-context stand-ins (Go toolchain, file module proxy)"
# link SRC DST: hard links when the cache is on the clone's file system, else a copy.
link() {
	cp -al "$1" "$2" 2>/dev/null && return 0
	[ -e "$2" ] && { find "$2" -type d -exec chmod u+w {} +; rm -rf "$2"; }
	cp -a "$1" "$2"
}
modcache=$(go env GOMODCACHE)
toolchain=$modcache/golang.org/toolchain@v0.0.1-go1.24.13.linux-amd64
[ -x "$toolchain/bin/go" ] || GOTOOLCHAIN=go1.24.13 go version
clean_offline
link "$toolchain" "$offline/go"
# Every module the image builds: the library's (the pinned proxy, the plugins)
# and the kernel's (gophernotes). Downloaded and verified by the host's go.
pin=$cache/gomodcache
(cd "$repo" && GOMODCACHE=$pin GOFLAGS=-modcacherw go mod download all)
# The kernels' modules, from copies: "go mod download" may add lines to a
# go.sum, and this script leaves the tracked files alone.
for m in kernel gonb gopls; do
	mkdir -p "$tmp/mod-$m" && cp "$repo/notebooks/$m/go.mod" "$repo/notebooks/$m/go.sum" "$tmp/mod-$m/"
done
(cd "$tmp/mod-kernel" && GOMODCACHE=$pin GOFLAGS=-modcacherw go mod download all)
# GoNB's: only the modules its build needs (not all of go-rod, plotly, ...).
(cd "$tmp/mod-gonb" && GOMODCACHE=$pin GOFLAGS=-modcacherw go list -deps \
	github.com/janpfeifer/gonb github.com/janpfeifer/gonb/gonbui golang.org/x/tools/cmd/goimports >/dev/null)
(cd "$tmp/mod-gopls" && GOMODCACHE=$pin GOFLAGS=-modcacherw go list -deps golang.org/x/tools/gopls >/dev/null)
link "$pin/cache/download" "$offline/goproxy"
du -sh "$offline/go" "$offline/goproxy"

step "docker build (offline arguments, --network host)"
build() {
	"$docker" build --network host --force-rm -f docker/Dockerfile \
		--build-arg BASE_IMAGE="$base" \
		--build-arg GO_TOOLCHAIN=offline \
		--build-arg GOPROXY=file:///tmp/offline/goproxy \
		--build-arg GOSUMDB=off \
		"$@" .
}
# The "go" stage (toolchain, gophernotes, pinned proxy) is the slow part and
# changes only with go.mod/go.sum and notebooks/kernel: tag it so that the
# prune at the end keeps its layers for the next run.
build --target go -t "$image-go"
build -t "$image"
size=$("$docker" image inspect -f '{{.Size}}' "$image")
say "image $image: $((size / 1000000)) MB"

step "notebooks inside the image (quick mode, --network none)"
data=${CREDLAB_DATA:-$repo/../shared/data}
datargs=()
if [ -d "$data" ]; then datargs=(-v "$(cd "$data" && pwd):/data:ro" -e CREDLAB_DATA=/data); fi
"$docker" run --rm --network none "${datargs[@]}" "$image" selfcheck
# The executed copies go to out/docker-notebooks (the container runs as uid 1000).
nbout=$repo/out/docker-notebooks
rm -rf "$nbout" && mkdir -p "$nbout" && chmod 0777 "$nbout"
"$docker" run --rm --network none -e CREDLAB_QUICK=1 -e OUT=/out -v "$nbout:/out" "${datargs[@]}" "$image" run-notebooks
chmod 0755 "$nbout"
# Both kernels as a user meets them: imports by module path from another
# folder, two kernels importing at once, a build error's message in the cell,
# an interrupt that keeps the state, GoNB's display of a figure and a table.
"$docker" run --rm --network none "$image" /opt/credlab/notebooks/check-kernels
"$docker" run --rm --network none "$image" python3 /opt/credlab/notebooks/jupyter/check_cell_ids.py

step "notebook server on 127.0.0.1 (token required)"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_up PORT NAME: until the server answers on 127.0.0.1:PORT (any HTTP status).
wait_up() {
	for _ in $(seq 120); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/api" 2>/dev/null)" != 000 ] && return 0
		[ "$("$docker" inspect -f '{{.State.Running}}' "$2" 2>/dev/null)" = true ] || break
		sleep 1
	done
	say "server $2 did not come up:"; "$docker" logs "$2" 2>&1 | tail -n 30; return 1
}
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

port=$(free_port)
token=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
name=credlab-ci-lab-$$
containers+=("$name")
"$docker" run -d --name "$name" --network host -e JUPYTER_TOKEN="$token" \
	-e LAB_IP=127.0.0.1 -e LAB_PORT="$port" "$image" >/dev/null
wait_up "$port" "$name"
url=http://127.0.0.1:$port
curl -fsS -H "Authorization: token $token" "$url/api/contents" >"$tmp/contents.json"
python3 - "$tmp/contents.json" "$repo"/notebooks/[0-9][0-9]-*.ipynb <<-'PY'
	import json, os, sys
	listed = {c["name"] for c in json.load(open(sys.argv[1]))["content"]}
	want = {os.path.basename(p) for p in sys.argv[2:] if os.path.exists(p)}
	missing = sorted(want - listed)
	print("docker/ci.sh: /api/contents lists %d entries: %s" % (len(listed), ", ".join(sorted(listed))))
	if not want or missing:
	    sys.exit("docker/ci.sh: notebooks missing from /api/contents: %s" % (missing or "(none in the repository)"))
	PY
# Outputs are captured before grep reads them: under pipefail, "cmd | grep -q"
# fails at random when grep exits first and cmd dies of SIGPIPE.
specs=$(curl -fsS "$url/api/kernelspecs?token=$token")
for k in credlab-go credlab-gonb; do
	grep -qF "\"$k\"" <<<"$specs" || { say "kernelspec $k not listed"; exit 1; }
done
[ "$(status "$url/tree?token=$token")" = 200 ] || { say "/tree with the token is not 200"; exit 1; }
code=$(status "$url/api/contents")
case "$code" in 401 | 403) say "/api/contents without a token: $code (refused)" ;; *) say "/api/contents without a token answered $code"; exit 1 ;; esac
code=$(status -H "Authorization: token wrong$token" "$url/api/contents")
case "$code" in 401 | 403) say "/api/contents with a wrong token: $code (refused)" ;; *) say "/api/contents with a wrong token answered $code"; exit 1 ;; esac
code=$(status "$url/tree")
case "$code" in 302 | 401 | 403) say "/tree without a token: $code (login page)" ;; *) say "/tree without a token answered $code"; exit 1 ;; esac

step "browser: every notebook in headless Chromium, HTML export"
# Debian's chromium and node, playwright-core pinned by docker/browser (npm,
# cached). Screenshots: out/browser.
if ! [ -x /usr/bin/chromium ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq chromium $(command -v node >/dev/null || echo nodejs) $(command -v npm >/dev/null || echo npm) >/dev/null
fi
npmdir=$cache/browser
if ! cmp -s "$repo/docker/browser/package-lock.json" "$npmdir/package-lock.json" || ! [ -d "$npmdir/node_modules/playwright-core" ]; then
	rm -rf "$npmdir" && mkdir -p "$npmdir"
	cp "$repo/docker/browser/package.json" "$repo/docker/browser/package-lock.json" "$npmdir/"
	(cd "$npmdir" && npm ci --no-audit --no-fund --loglevel=error)
fi
shots=$repo/out/browser
rm -rf "$shots"
NODE_PATH=$npmdir/node_modules node "$repo/docker/browser/check.js" "$url" "$token" "$shots" /usr/bin/chromium
"$docker" rm -f "$name" >/dev/null

# Without JUPYTER_TOKEN the server makes one and prints it; it must work.
port=$(free_port)
name=credlab-ci-lab2-$$
containers+=("$name")
"$docker" run -d --name "$name" --network host -e LAB_IP=127.0.0.1 -e LAB_PORT="$port" "$image" >/dev/null
wait_up "$port" "$name"
logs=$("$docker" logs "$name" 2>&1)
printed=$(sed -n 's/^ *Token: *\([0-9a-f]\{48\}\)$/\1/p' <<<"$logs" | sed -n 1p)
[ -n "$printed" ] || { say "no token printed at start"; "$docker" logs "$name" 2>&1 | tail -n 20; exit 1; }
[ "$(status -H "Authorization: token $printed" "http://127.0.0.1:$port/api/contents")" = 200 ] ||
	{ say "the printed token is refused"; exit 1; }
[ "$(status "http://127.0.0.1:$port/api/contents")" != 200 ] || { say "generated-token server answers without a token"; exit 1; }
say "printed token accepted, requests without it refused"
"$docker" rm -f "$name" >/dev/null
# A token that is explicitly empty must be refused by the entry point.
if "$docker" run --rm --network none "$image" notebook --NotebookApp.token= >/dev/null 2>&1; then
	say "the entry point started a server with an empty token"; exit 1
fi
say "an empty token is refused by the entry point"

step "README's run command as root and as uid 1234; your own notebooks across restarts"
# README's command, as written, except: detached instead of --rm -it (no
# terminal here; the token is given), and on the host's loopback with
# --network host and LAB_IP/LAB_PORT instead of -p (this daemon has no bridge).
readme=$(grep -m1 '^mkdir -p work data && docker run ' "$repo/README.md" || true)
[ -n "$readme" ] || { say "README.md shows no 'mkdir -p work data && docker run' command"; exit 1; }
grep -qF -- "$readme" "$repo/docker/README.md" || { say "docker/README.md shows another run command than README.md"; exit 1; }
readme_run() { # DIR NAME PORT TOKEN
	local cmd=${readme/--rm -it /-d --name $2 -e JUPYTER_TOKEN=$4 }
	cmd=${cmd/-p 127.0.0.1:8888:8888 /--network host -e LAB_IP=127.0.0.1 -e LAB_PORT=$3 }
	cmd=${cmd/docker run /"$docker" run }
	case "$cmd" in *" -d --name "*"--network host"*) ;; *) say "cannot adapt README's command: $readme"; exit 1 ;; esac
	(cd "$1" && eval "$cmd" >/dev/null)
}
usernb=$repo/out/browser-usernb
rm -rf "$usernb"
for who in 0 1234; do
	dir=$tmp/readme-$who
	mkdir -p "$dir/work"
	[ "$who" = 0 ] || chown "$who:$who" "$dir/work"
	port=$(free_port)
	token=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
	name=credlab-ci-readme-$who-$$
	containers+=("$name")
	restart() {
		"$docker" rm -f "$name" >/dev/null 2>&1 || true
		readme_run "$dir" "$name" "$port" "$token"
		wait_up "$port" "$name"
	}
	restart
	logs=$("$docker" logs "$name" 2>&1)
	grep -qF "running as uid $who, gid $who" <<<"$logs" ||
		{ say "the server does not run as uid $who:"; "$docker" logs "$name" 2>&1 | tail -n 20; exit 1; }
	owner=$(stat -c %u:%g "$dir/work/00-quickstart.ipynb")
	[ "$owner" = "$who:$who" ] || { say "copied notebooks owned by $owner, want $who:$who"; exit 1; }
	say "README's command with a work folder of uid $who: runs as uid $who, notebooks copied as $owner"
	if [ "$who" = 0 ]; then
		# Saving through the server, as root.
		curl -fsS -X PUT -H "Authorization: token $token" -H 'Content-Type: application/json' \
			-d '{"type": "notebook", "content": {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}}' \
			"http://127.0.0.1:$port/api/contents/saved.ipynb" >/dev/null
		[ "$(stat -c %u "$dir/work/saved.ipynb")" = 0 ] || { say "saved.ipynb is not root's"; exit 1; }
	else
		# A notebook per kernel made in the browser, saved, reopened after a
		# restart (trusted, SVG), and after losing its signature (PNG).
		NODE_PATH=$npmdir/node_modules node "$repo/docker/browser/usernb.js" "http://127.0.0.1:$port" "$token" "$usernb" create /usr/bin/chromium
		for f in $(python3 -c 'import json, sys; print(" ".join(m["name"] for m in json.load(open(sys.argv[1]))))' "$usernb/usernb.json"); do
			[ "$(stat -c %u "$dir/work/$f")" = "$who" ] || { say "$f is not owned by uid $who"; exit 1; }
		done
		restart
		NODE_PATH=$npmdir/node_modules node "$repo/docker/browser/usernb.js" "http://127.0.0.1:$port" "$token" "$usernb" reopen /usr/bin/chromium
		rm -f "$dir/work/.credlab-lab/nbsignatures.db"
		restart
		NODE_PATH=$npmdir/node_modules node "$repo/docker/browser/usernb.js" "http://127.0.0.1:$port" "$token" "$usernb" untrusted /usr/bin/chromium
	fi
	"$docker" rm -f "$name" >/dev/null
done
# Started with --user and a folder it cannot write: a clear error, and the
# container stays long enough to read it (no --rm).
mkdir -p "$tmp/ro" && chmod 0755 "$tmp/ro"
name=credlab-ci-ro-$$
containers+=("$name")
if "$docker" run --name "$name" --network none --user 4321 -v "$tmp/ro:/opt/credlab/work" "$image" >/dev/null 2>&1; then
	say "a server started on a folder it cannot write"; exit 1
fi
logs=$("$docker" logs "$name" 2>&1)
grep -qF "cannot write to /opt/credlab/work" <<<"$logs" || { say "no clear error for an unwritable folder"; exit 1; }
say "an unwritable work folder under --user is a clear error"

step "stop dockerd and clean up"
trap - EXIT
teardown
step ""

printf '\n== docker/ci.sh: summary\n'
printf 'image %s: %d MB (%s bytes)\n' "$image" $((size / 1000000)) "$size"
printf '%s\n' "${timings[@]}"
printf '%5d s  total\n' $(($(date +%s) - t0))
echo "docker/ci.sh passed"
