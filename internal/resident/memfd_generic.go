//go:build linux && (arm64 || riscv64 || loong64)

package resident

// sysMemfdCreate is memfd_create's number (the generic system call table).
const sysMemfdCreate = 279
