// Package mcptest is a small MCP server for tests, built on the official
// SDK, that the MCP proxy's tests run as a real process in front of which
// the proxy stands. It exposes a shell tool (run_command), a code runner
// (run_code), two keystroke tools (send_keys into a terminal pane,
// type_text where the keyboard focus is), a file writer (write_file) and
// a fetch tool (fetch), plus change_tools, which changes the fetch tool's
// description and adds a tool (a "rug pull"). It logs every tools/call
// it receives, one JSON line each, to the file named by
// $TOOLWALL_MCPTEST_LOG, so a test can prove a refused call never
// reached it.
//
// The shell, code, keystroke and fetch tools never run, type or fetch
// anything: they answer with what they would do. write_file really
// writes (tests point it at their temporary directories).
package mcptest
