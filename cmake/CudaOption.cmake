# VSGPU_CUDA=AUTO|ON|OFF -> VSGPU_HAVE_CUDA. AUTO builds the CUDA engine when
# nvcc is found (on PATH, CUDACXX, or CUDA's standard /usr/local/cuda).
set(VSGPU_HAVE_CUDA OFF)
string(TOUPPER "${VSGPU_CUDA}" _vsgpu_cuda)
if(NOT _vsgpu_cuda STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Turing to Hopper as real code, plus PTX of the newest for later GPUs.
    # Set before enable_language(CUDA), which would otherwise fill in the
    # compiler's own default (a single old architecture).
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90")
    endif()
    enable_language(CUDA)
    set(VSGPU_HAVE_CUDA ON)
  elseif(_vsgpu_cuda STREQUAL "ON")
    message(FATAL_ERROR "VSGPU_CUDA=ON but no CUDA compiler was found (set CUDACXX or put nvcc on PATH)")
  else()
    message(STATUS "VSGPU: no CUDA compiler found; building the CPU engine only")
  endif()
endif()
