//go:build linux && !amd64 && !arm64 && !riscv64 && !loong64

package resident

// sysMemfdCreate is memfd_create's number; unknown here (anonymousFile
// falls back to an unlinked file).
const sysMemfdCreate = -1
