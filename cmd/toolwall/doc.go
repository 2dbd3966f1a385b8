// Command toolwall decides on AI agents' tool calls before they run: allow,
// warn, ask or deny, with a reason the model can act on.
//
//	toolwall check -- rm -rf ~          # one call, exit 0 allow/warn, 3 ask, 2 deny
//	toolwall hook claude-code           # Claude Code hook (stdin JSON → stdout JSON)
//	toolwall eval cases.jsonl           # measure against case files
//	toolwall run -- make test           # run a command through the shell executor (126 when refused)
//	toolwall fetch https://go.dev/      # fetch through the fetch executor's SSRF defence
//	toolwall version
package main
