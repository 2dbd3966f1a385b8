// Package llm is toolwall's small model-client interface: one chat
// completion (a system prompt and user/assistant messages in, the reply's
// text, the answering model and the token usage out), as the later-stage
// analyzers need it (the guardrail of the LLM security analyzer, the advisor of the shell guardrail).
//
// The package itself holds no provider code and imports no SDK: a
// [Client] comes from the implementations in llm/openai (the OpenAI chat
// completions wire format, which OpenAI, Ollama, vLLM, llama.cpp's server
// and LM Studio all speak) and llm/anthropic (Anthropic Messages), chosen
// from a [Config] by llm/providers. A program that never asks a model need
// not link either SDK: llm/helper runs them in the toolwall-llm process,
// which is how the toolwall command uses them.
//
// # Secrets
//
// The API key is read from the environment variable a [Config] names, at
// the moment a client is built, and held as a [Secret]: its String, Format,
// LogValue, MarshalJSON and MarshalText all print "[REDACTED]", and every
// error a client returns has the key scrubbed from its text (an [*Error]
// keeps no reference to the SDK's error, which holds the request). Config
// itself holds only the variable's name.
//
// # Bounds
//
// A client sends one request per call, without retries (the caller has a
// budget, and a retry of a slow server only spends it); the request is
// bounded by Config.Timeout and by the context, and the reply body by
// [MaxReplyBytes]: a larger reply fails with [ErrReplyTooLarge] rather
// than being read into memory whole.
package llm
