// Package openai is an [llm.Client] for the OpenAI chat completions wire
// format (POST {base_url}/chat/completions), on the official SDK
// github.com/openai/openai-go/v3. OpenAI, Ollama, vLLM, llama.cpp's
// server and LM Studio speak it.
//
// The client is built without the SDK's environment defaults: no
// OPENAI_API_KEY, OPENAI_BASE_URL or OPENAI_CUSTOM_HEADERS is picked up
// behind the configuration's back (a key meant for OpenAI must never
// reach a local server the configuration names, nor the other way round).
// It sends temperature 0 and max_tokens, and reads only the message
// content of the first choice, never reasoning_content.
package openai
