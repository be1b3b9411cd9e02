//go:build !noxla

package latformer

import (
	"strings"

	"github.com/gomlx/go-xla/compute/xla"
	"github.com/gomlx/go-xla/pjrt"
)

func init() {
	xlaPluginAvailable = func(name string) bool {
		if name == "" {
			return false
		}
		for found := range pjrt.AvailablePlugins() {
			// Versioned installs are named like "cpu_v0.83.1".
			if found == name || strings.HasPrefix(found, name+"_v") {
				return true
			}
		}
		return false
	}
	xlaDisableAutoInstall = func() { xla.EnableAutoInstall(false) }
}
