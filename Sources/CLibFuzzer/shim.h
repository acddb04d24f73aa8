// libFuzzer's entry point for programs that have their own main. It is defined by the
// runtime that `-sanitize=fuzzer` links, so only fuzzing builds may call it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
