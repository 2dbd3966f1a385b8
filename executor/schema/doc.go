// Package schema is the tool-executor framework's dynamic tool-schema filter
// (ToolSchemaFilter): of an executor's tool definitions, only the top K
// most relevant to the user's query are shown to the model, which keeps a
// large tool catalogue out of the context; tools marked always-on are
// kept whatever their score.
//
// Relevance comes from a [Scorer]: [Lexical] (the default: TF-IDF cosine
// similarity over the words of each tool's name and description, local
// and deterministic) or [Embeddings] (an OpenAI-compatible /embeddings
// endpoint, called with the official openai-go client; tool vectors are
// computed once and kept).
//
// The filter is about context size, not safety: every call still goes
// through the executors' gate. So a scorer failure shows every tool (and
// returns the error) rather than hiding any.
package schema
