#!/bin/sh
# The installed package as users consume it (tests/CMakeLists.txt, Package.Consumers): install
# the build into a fresh prefix; build and run a C user that asks for the core only, with
# PkgConfig (and so SystemC) out of reach; build and run a SystemC user and a platform user.
# Arguments: the build directory, this directory, a scratch directory, compile and link flags.
set -eu
build=$1 src=$2 scratch=$3 flags=${4:-}
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake --no-warn-unused-cli -S "$src/c_consumer" -B "$scratch/c" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
    -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$scratch/c" >/dev/null
"$scratch/c/c_consumer"
cmake -S "$src/systemc_consumer" -B "$scratch/systemc" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$scratch/systemc" >/dev/null
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$scratch/systemc/systemc_consumer"
cmake -S "$src/platform_consumer" -B "$scratch/platform" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$scratch/platform" >/dev/null
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$scratch/platform/platform_consumer"
