package copilot

import (
	"testing"

	"github.com/toolwall/toolwall/host/hosttest"
)

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, hosttest.Views["copilot"]) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, hosttest.Views["copilot"]) }
