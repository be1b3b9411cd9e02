//go:build !noxla

package latformer

import (
	"github.com/gomlx/go-xla/compute/xla"
	"github.com/gomlx/go-xla/pjrt"
)

func init() {
	xlaPluginAvailable = func() bool {
		_, found := pjrt.AvailablePlugins()["cpu"]
		return found
	}
	xlaDisableAutoInstall = func() { xla.EnableAutoInstall(false) }
}
