package adversarial_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/advisors/adversarial"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/shell"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/providers"
)

// Example puts the adversarial policy gate in front of the shell
// executor. The model (here a stand-in on loopback that speaks the OpenAI
// chat completions format) denies a push the task does not need; the
// harmless command runs, and the shell executor still applies toolwall's
// rules to it.
func Example() {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		answer := "DECISION: ALLOW\nIt prints a word."
		if strings.Contains(string(body), "git push") {
			answer = "DECISION: DENY\nPushing to the remote is not part of the task."
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"model": "judge-1", "choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
			"usage": map[string]any{"prompt_tokens": 700, "completion_tokens": 12}})
	}))
	defer model.Close()
	client, _ := providers.Open(llm.Config{BaseURL: model.URL + "/v1", Model: "judge-1"})

	project, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(project)
	sh := shell.New(shell.Options{Gate: engine.New(engine.Options{}), Project: project,
		Environments: executor.Environments{Cwd: project}})
	guarded, _ := adversarial.New(sh, adversarial.Options{Client: client}) // OnError: deny by default

	for _, cmd := range []string{"echo hello", "git push origin main"} {
		call := toolwall.NewBashCall(cmd)
		call.Cwd = project
		out, _ := guarded.Execute(context.Background(), &executor.Request{Call: call})
		fmt.Printf("%s → error=%v: %s\n", cmd, out.IsError, strings.TrimSpace(out.Text))
	}
	// Output:
	// echo hello → error=false: hello
	// git push origin main → error=true: refused by toolwall [adversarial.deny]: The adversarial policy model (judge-1) refused this Bash call: Pushing to the remote is not part of the task. Do not retry it in another form; if the step is really needed, explain why to the user.
}
