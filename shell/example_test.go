package shell_test

import (
	"fmt"

	"github.com/toolwall/toolwall/shell"
)

func ExampleRead() {
	s, err := shell.Read(`cd /tmp && sudo env DEBUG=1 bash -c 'rm -rf ~/cache' | tee log`,
		shell.Options{Cwd: "/workspace/app", Home: "/home/user"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.Commands {
		fmt.Printf("%-5s %-28q cwd=%s via=%q wrappers=%v privileged=%v depth=%d\n",
			c.Name, c.String(), c.Cwd, c.Via, c.Wrappers, c.Privileged, c.Depth)
	}
	// Output:
	// cd    "cd /tmp"                    cwd=/workspace/app via="" wrappers=[] privileged=false depth=0
	// bash  "bash -c rm -rf ~/cache"     cwd=/tmp via="" wrappers=[sudo env] privileged=true depth=0
	// rm    "rm -rf /home/user/cache"    cwd=/tmp via="sh -c" wrappers=[] privileged=true depth=1
	// tee   "tee log"                    cwd=/tmp via="" wrappers=[] privileged=false depth=0
}
