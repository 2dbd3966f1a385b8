// Package tafc is the tool-executor framework's TAFC, Think-Augmented Function Calling: a
// reasoning step before tool selection, in which a model is shown the
// user's request and the available tools and asked to think about which
// tools fit before the agent's model picks one.
//
// The model is any [Model]: the small interface this package needs,
// which the LLM client of toolwall's second-opinion work (package llm)
// or any other client can satisfy with an adapter. Without a model TAFC
// is off: [Think] returns a Plan with Off set and every tool.
//
// The step advises, it does not guard: a model failure or an answer that
// cannot be read gives a Plan with every tool and the error in Err (the
// failure is visible, never mistaken for a choice), and every call still
// goes through the executors' gate.
package tafc
