// Package providers opens the [llm.Client] a [llm.Config] names: llm/openai
// for OpenAI-compatible servers, llm/anthropic for Anthropic Messages. It
// is the one package that links both SDKs; a program passes [Open] where
// a model client is wanted (engine.Options.Dial).
package providers

import (
	"fmt"
	"os"

	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/anthropic"
	"github.com/toolwall/toolwall/llm/openai"
)

// Open returns the client cfg names, with the API key read now from the
// variable cfg.APIKeyEnv names. Errors: cfg fails llm.Config.Check, or
// the variable is named but unset or empty.
func Open(cfg llm.Config) (llm.Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	key, err := cfg.Key(os.Getenv)
	if err != nil {
		return nil, err
	}
	switch cfg.Provider {
	case llm.Anthropic:
		return anthropic.New(cfg, key)
	case llm.OpenAI:
		return openai.New(cfg, key)
	}
	return nil, fmt.Errorf("llm: unknown provider %q", cfg.Provider)
}
