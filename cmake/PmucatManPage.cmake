# cmake -DIN=docs/man/<tool>.1.md -DOUT=<tool>.1.gz -DGO_MD2MAN=... -DGZIP=... -DVERSION=...
#   -P PmucatManPage.cmake
# One man page: go-md2man's roff, whose .TH line (go-md2man 2.0 copies pandoc's title block
# `% PMULS(1) pmucat | User Commands` into it as it is) is replaced by a proper one, compressed
# with gzip -9n (no file name or time stamp inside: reproducible, as Debian wants it).
get_filename_component(name ${IN} NAME_WE)
string(TOUPPER ${name} title)
set(roff ${OUT}.roff)
execute_process(COMMAND ${GO_MD2MAN} -in ${IN} -out ${roff} COMMAND_ERROR_IS_FATAL ANY)
file(READ ${roff} text)
string(REGEX REPLACE "\n\\.TH [^\n]*" "\n.TH \"${title}\" \"1\" \"\" \"pmucat ${VERSION}\" \"User Commands\"" text "\n${text}")
string(SUBSTRING "${text}" 1 -1 text)
file(WRITE ${roff} "${text}")
execute_process(COMMAND ${GZIP} -9nc ${roff} OUTPUT_FILE ${OUT} COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE ${roff})
