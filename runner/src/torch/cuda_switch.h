// The one place that decides whether the CUDA code of the torch layer is compiled: only against
// a CUDA build of LibTorch, whose install carries the generated c10/cuda/impl/cuda_cmake_macros.h
// (a CPU build does not, even where it ships the rest of c10/cuda, as Debian's LibTorch 1.13
// does). A build may force it on with -DMLREGRESS_TORCH_CUDA=1 or off with =0.
// ci/cuda-libtorch-check.sh compiles and links the CUDA code against PyTorch's CUDA LibTorch.
#pragma once

#if !defined(MLREGRESS_TORCH_CUDA)
#if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>)
#define MLREGRESS_TORCH_CUDA 1
#else
#define MLREGRESS_TORCH_CUDA 0
#endif
#endif
