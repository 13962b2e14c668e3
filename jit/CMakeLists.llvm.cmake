# kiln_llvm: the CPU code generator, kernel IR -> LLVM 19 -> machine code.
# Linked against Debian's one shared libLLVM-19.so, so links stay fast. LLVM accepts
# only a matching major.minor ("19" alone is refused).
find_package(LLVM 19.1 REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm)
add_library(kiln_llvm STATIC llvm_backend.cpp llvm_codegen.cpp llvm_erf.cpp llvm_exp_tanh.cpp vector_math.cpp row_scratch.cpp)
# SYSTEM: LLVM's headers trip -Wextra -Werror in places.
target_include_directories(kiln_llvm SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
separate_arguments(KILN_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(kiln_llvm PRIVATE ${KILN_LLVM_DEFINITIONS})
target_link_libraries(kiln_llvm PUBLIC kiln_core kiln_flags PRIVATE LLVM)
