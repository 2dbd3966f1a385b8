// Package anthropic is an [llm.Client] for the Anthropic Messages wire
// format (POST {base_url}/v1/messages), on the official SDK
// github.com/anthropics/anthropic-sdk-go/v2.
//
// The client is built without the SDK's environment defaults: no
// ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, profile or
// federation is picked up behind the configuration's back. It sends
// max_tokens (the API version this SDK speaks has no temperature), asks
// for no extended thinking, and reads only the text blocks of the reply,
// never thinking blocks.
package anthropic
