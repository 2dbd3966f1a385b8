package toolwall_test

import (
	"encoding/json"
	"testing"

	"github.com/toolwall/toolwall"
)

// fieldByMap is Call.Field as json.Unmarshal reads it: the whole object
// into a map, then the member into a string. Field must agree with it on
// every input (a reader that disagreed with the host's JSON about a
// command would judge another command than the one that runs).
func fieldByMap(in []byte, name string) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil {
		return "", false
	}
	raw, ok := m[name]
	if !ok || string(raw) == "null" {
		// The one reading Field does not share: null is no string.
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// fieldInputs are inputs where a quick reading of JSON could go wrong.
var fieldInputs = []string{
	`{"command":"ls -la"}`,
	` { "command" : "ls" , "description" : "x" } `,
	`{"description":"x","command":"rm -rf /"}`,
	`{"command":"ls","command":"rm -rf /"}`,
	`{"command":"rm -rf /","command":"ls"}`,
	`{"command":"ls","Command":"rm -rf /"}`,
	`{"command":"ls","comm\u0061nd":"rm -rf /"}`,
	`{"comm\u0061nd":"rm -rf /"}`,
	`{"command":"ls","commandé":"x"}`,
	"{\"command\":\"ls\",\"comm\xffand\":\"x\"}",
	"{\"command\":\"caf\xff\"}",
	`{"command":"a\"b\\c\u00e9\n"}`,
	`{"command":"café ☕"}`,
	`{"command":null}`,
	`{"command":1}`,
	`{"command":["rm","-rf","/"]}`,
	`{"command":{"x":"}"},"y":"{"}`,
	`{"a":{"command":"rm -rf /"},"command":"ls"}`,
	`{"a":["]","}",{"b":"\""}],"command":"ls"}`,
	`{"a":true,"b":false,"c":null,"d":-1.5e3,"command":"ls"}`,
	`{"command":"ls"} x`,
	`{"command":"ls"`,
	`["command","ls"]`,
	`"command"`,
	`null`,
	``,
	`{}`,
	`{"command":"ls",}`,
	"\xef\xbb\xbf{\"command\":\"ls\"}",
	"{\"command\":\"\xed\xa0\x80\"}",
	`{"command":"\ud800"}`,
}

// TestField: Field reads every tricky input as json.Unmarshal does.
func TestField(t *testing.T) {
	for _, in := range fieldInputs {
		for _, name := range []string{"command", "description", "Command", "commandé"} {
			c := toolwall.Call{Tool: toolwall.ToolBash, Input: json.RawMessage(in)}
			s, ok := c.Field(name)
			ws, wok := fieldByMap([]byte(in), name)
			if s != ws || ok != wok {
				t.Errorf("Field(%q) of %q = %q %v, json.Unmarshal reads %q %v", name, in, s, ok, ws, wok)
			}
		}
	}
}

// FuzzField: Field agrees with json.Unmarshal on any input.
func FuzzField(f *testing.F) {
	for _, in := range fieldInputs {
		f.Add([]byte(in), "command")
	}
	f.Fuzz(func(t *testing.T, in []byte, name string) {
		c := toolwall.Call{Tool: toolwall.ToolBash, Input: in}
		s, ok := c.Field(name)
		ws, wok := fieldByMap(in, name)
		if s != ws || ok != wok {
			t.Errorf("Field(%q) of %q = %q %v, json.Unmarshal reads %q %v", name, in, s, ok, ws, wok)
		}
	})
}

// BenchmarkField reads the command of a Bash call.
func BenchmarkField(b *testing.B) {
	c := toolwall.NewBashCall("find . -name '*.go' -newer go.mod | xargs grep -l TODO")
	b.ReportAllocs()
	for b.Loop() {
		c.Command()
	}
}
