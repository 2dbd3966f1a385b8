package resident

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/internal/rows"
)

func TestRequestRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name   string   `json:"name"`
		Args   []string `json:"args"`
		Dir    string   `json:"dir"`
		Env    []string `json:"env"`
		Limits []uint64 `json:"limits"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			in := Request{Args: c.Args, Dir: c.Dir, Env: c.Env, Limits: c.Limits}
			b, err := in.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			n, err := FrameLen(b[:8])
			if err != nil || n != len(b) {
				t.Fatalf("FrameLen = %d, %v; want %d", n, err, len(b))
			}
			out, err := Unmarshal(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Args) == 0 && len(out.Args) == 0 {
				in.Args, out.Args = nil, nil
			}
			if len(in.Env) == 0 && len(out.Env) == 0 {
				in.Env, out.Env = nil, nil
			}
			if len(in.Limits) == 0 && len(out.Limits) == 0 {
				in.Limits, out.Limits = nil, nil
			}
			if !reflect.DeepEqual(in, out) {
				t.Fatalf("round trip: %#v, want %#v", out, in)
			}
			// Every strict prefix and any trailing byte is malformed.
			for i := 0; i < len(b); i++ {
				if _, err := Unmarshal(b[:i]); !errors.Is(err, ErrMalformed) {
					t.Fatalf("prefix of %d bytes: err %v", i, err)
				}
			}
			if _, err := Unmarshal(append(b, 0)); !errors.Is(err, ErrMalformed) {
				t.Fatalf("trailing byte: err %v", err)
			}
		})
	}
}

func TestRequestBound(t *testing.T) {
	big := Request{Args: []string{"hook"}, Env: []string{strings.Repeat("x", MaxRequest)}}
	if _, err := big.Marshal(); err == nil {
		t.Fatal("a request over MaxRequest was encoded")
	}
	head := append([]byte(magic), 0xff, 0xff, 0xff, 0xff)
	if _, err := FrameLen(head); !errors.Is(err, ErrMalformed) {
		t.Fatalf("FrameLen of an oversized announcement: %v", err)
	}
}

func TestReply(t *testing.T) {
	for _, status := range []int{0, 1, 2, 255, Stale} {
		got, err := ParseReply(Reply(status))
		if err != nil || got != status {
			t.Errorf("ParseReply(Reply(%d)) = %d, %v", status, got, err)
		}
	}
	for _, bad := range []string{"", "TWR1", "TWR2\x00\x00\x00\x00", "TWR1\x00\x00\x00\x00\x00"} {
		if _, err := ParseReply([]byte(bad)); err == nil {
			t.Errorf("ParseReply(%q) accepted", bad)
		}
	}
}

func TestSocket(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/sockets.tsv", 5) {
		c := r.Fields
		env := map[string]string{"XDG_RUNTIME_DIR": c[1], "XDG_STATE_HOME": c[2], "HOME": c[3]}
		getenv := func(k string) string {
			if v := env[k]; v != "-" {
				return v
			}
			return ""
		}
		got, err := Socket("/usr/local/bin/toolwall", getenv)
		switch {
		case c[4] == "error":
			if err == nil {
				t.Errorf("%s: Socket = %q, want an error", c[0], got)
			}
		case err != nil:
			t.Errorf("%s: %v", c[0], err)
		case filepath.Dir(got) != c[4] || !strings.HasPrefix(filepath.Base(got), "hook-") || !strings.HasSuffix(got, ".sock"):
			t.Errorf("%s: Socket = %q, want a hook-*.sock in %s", c[0], got, c[4])
		}
	}
	a, _ := Socket("/a/toolwall", func(string) string { return "/h" })
	b, _ := Socket("/b/toolwall", func(string) string { return "/h" })
	if a == b {
		t.Errorf("two installs share the socket %s", a)
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, r := range []Request{{Args: []string{"hook", "claude-code"}, Dir: "/w", Env: []string{"A=b"}, Limits: []uint64{1, 1 << 63}}, {}} {
		b, _ := r.Marshal()
		f.Add(b)
	}
	f.Add([]byte("TWR1\x00\x00\x00\x04\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Unmarshal(b)
		if err != nil {
			return
		}
		again, err := r.Marshal()
		if err != nil {
			t.Fatalf("a decoded request does not encode: %v", err)
		}
		if string(again) != string(b) {
			t.Fatalf("decode then encode changed the bytes")
		}
	})
}
