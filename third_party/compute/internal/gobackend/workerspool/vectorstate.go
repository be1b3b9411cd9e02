// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package workerspool

// ClearVectorState is called after each task of the pool and after each node the backend executes: on amd64
// with GOEXPERIMENT=simd and AVX, it clears the upper halves of the vector registers (VZEROUPPER), which the
// backend's AVX2/AVX-512 kernels leave dirty. Scalar float code run with them dirty (the generic executors,
// the Go runtime, the next kernel's scalar tails) pays a penalty on many x86 CPUs: measured here (AMD EPYC
// under KVM), the AVX2 softmax's scalar sums ran 2x slower without it. Elsewhere it does nothing.
var ClearVectorState = func() {}
