package opencode

import (
	"testing"

	"github.com/toolwall/toolwall/host/hosttest"
	"github.com/toolwall/toolwall/host/view"
)

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, view.For("opencode")) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, view.For("opencode")) }
