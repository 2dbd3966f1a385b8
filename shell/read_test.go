package shell

import (
	"fmt"
	"strings"
	"testing"
)

// caseFiles are the Read case tables (format: see loadCases).
var caseFiles = []string{"testdata/read.txt", "testdata/spec.txt", "testdata/interp.txt", "testdata/routes.txt"}

func TestRead(t *testing.T) {
	for _, file := range caseFiles {
		for _, c := range loadCases(t, file) {
			t.Run(fmt.Sprintf("%s:%d", file, c.line), func(t *testing.T) {
				s, err := Read(c.src, c.opt)
				got := renderScript(s, err, c.opt)
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("Read(%q)\ngot:\n\t%s\nwant:\n\t%s", c.src, strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
				}
			})
		}
	}
}
