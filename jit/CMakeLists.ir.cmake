# kiln_jit_ir: the trace IR (graph.cpp) and guards (guards.cpp).
add_library(kiln_jit_ir STATIC graph.cpp guards.cpp)
target_link_libraries(kiln_jit_ir PUBLIC kiln_core)
target_include_directories(kiln_jit_ir PUBLIC ${PROJECT_SOURCE_DIR})
