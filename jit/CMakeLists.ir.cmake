# kiln_jit_ir: the trace IR (graph.cpp), guards (guards.cpp), fusion and liveness: no LLVM.
add_library(kiln_jit_ir STATIC graph.cpp guards.cpp fusion.cpp matmul_epilogue.cpp liveness.cpp passes/pipeline.cpp
            passes/analysis.cpp passes/dce.cpp passes/cse.cpp passes/simplify.cpp passes/constant_fold.cpp
            passes/functionalize.cpp passes/steal_copies.cpp)
target_link_libraries(kiln_jit_ir PUBLIC kiln_core)
target_include_directories(kiln_jit_ir PUBLIC ${PROJECT_SOURCE_DIR})
