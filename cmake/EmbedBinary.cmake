# cmake -DIN=<file> -DOUT=<file.inc> -DNAME=<identifier> -P EmbedBinary.cmake
#
# Writes IN's bytes as a C++ array NAME (8-byte aligned: a cubin is parsed
# as ELF in place) to OUT, for a binary the plugin carries inside itself
# (the inspector's GPU kernel, plugin/src/gpu/IndexRange.cu).
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
set(eight "0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,")
string(REGEX REPLACE "(${eight}${eight})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
     "// Generated from ${IN} by cmake/EmbedBinary.cmake.\n"
     "alignas(8) static const unsigned char ${NAME}[] = {\n${bytes}\n};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
