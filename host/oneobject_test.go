package host

import "testing"

// FuzzOneObject: oneObject's one-pass check accepts exactly what the
// token-by-token reading accepts (one JSON object, white space around).
func FuzzOneObject(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1} `, `{"a":1}{}`, `[]`, `null`, ``, `{"a":`, "\t{\"a\":[1,{}]}\n", `{} x`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if fast, slow := oneObject(data) == nil, notOneObject(data) == nil; fast != slow {
			t.Fatalf("%q: one pass accepts %v, token by token %v", data, fast, slow)
		}
	})
}
