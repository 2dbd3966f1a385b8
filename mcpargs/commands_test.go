package mcpargs

import (
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
)

// FuzzCommandTool: renaming an argument does not hide it. Whatever the
// name of a shell tool's one string argument, the string is judged as a
// Bash command as it is, unless the name is a top-level note about the
// call, the working directory or the language (or the string is a URL,
// judged as a fetch).
func FuzzCommandTool(f *testing.F) {
	for _, seed := range [][2]string{
		{"command", "rm -rf ~"}, {"text", "rm -rf /"}, {"Description", "rm -rf ~"}, {"ſource", "x"},
		{"cwd", "/tmp"}, {"language", "python"}, {"stdin", "rm -rf ~"}, {"args", "-rf ~"}, {"desc\u200bription", "ls"},
		{"payload", `{"cmd":"rm -rf ~"}`}, {"b", "cm0gLXJmIH4="}, {"url", "http://169.254.169.254/"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, key, s string) {
		if !utf8.ValidString(key) || !utf8.ValidString(s) || s == "" || looksLikeURL(s) {
			return // JSON cannot carry the bytes as they are; a URL is a fetch
		}
		k := fold(key)
		if slices.Contains(noteKeys, k) || slices.Contains(cwdKeys, k) || slices.Contains(languageKeys, k) {
			return
		}
		args, err := json.Marshal(map[string]string{key: s})
		if err != nil {
			t.Fatal(err)
		}
		calls, err := Extract("run_command", args, Places{Cwd: "/w", Home: "/home/u"})
		if err != nil {
			t.Fatalf("Extract(%s): %v", args, err)
		}
		want, _ := json.Marshal(map[string]string{"command": s})
		if !slices.ContainsFunc(calls, func(c toolwall.Call) bool { return c.Tool == toolwall.ToolBash && string(c.Input) == string(want) }) {
			t.Errorf("%s: %s is not judged as a command: %+v", args, want, calls)
		}
	})
}
