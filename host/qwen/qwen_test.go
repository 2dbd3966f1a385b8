package qwen

import (
	"testing"

	"github.com/toolwall/toolwall/host/hosttest"
)

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, hosttest.Views["qwen"]) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, hosttest.Views["qwen"]) }
