# Writes fixtures/pmu-events/arch/x86/mapfile.csv and demolake/<topic>.json (git-ignored) from the
# records of
# cmake/PmucatDemoEvents.cmake at configure time, each file only when its content changed: the
# tests, golden cases and docs read that tree as a JSON catalog laid out like the kernel's.

set(_pmucat_demo_topics "")
set(_pmucat_demo_mapfile "Family-model,Version,Filename,EventType\n")

function(pmucat_demo_mapfile_row row)
  set(_pmucat_demo_mapfile "${_pmucat_demo_mapfile}${row}\n" PARENT_SCOPE)
endfunction()

function(pmucat_demo_indent topic spaces)
  set(_pmucat_demo_indent_${topic} ${spaces} PARENT_SCOPE)
endfunction()

# One event object appended to its topic's text. Values are read as ARGV<n>, which keeps each
# whole (a list expansion would split descriptions at ';'), and only ever inside quotes.
function(pmucat_demo_event topic)
  set(step 2)
  if(DEFINED _pmucat_demo_indent_${topic})
    set(step ${_pmucat_demo_indent_${topic}})
  endif()
  math(EXPR twice "${step} * 2")
  string(REPEAT " " ${step} outer)
  string(REPEAT " " ${twice} inner)
  if(topic IN_LIST _pmucat_demo_topics)
    set(text "${_pmucat_demo_json_${topic}},\n")
  else()
    set(text "[\n")
    set(_pmucat_demo_topics ${_pmucat_demo_topics} ${topic} PARENT_SCOPE)
  endif()
  string(APPEND text "${outer}{")
  math(EXPR last "${ARGC} - 1")
  set(separator "\n")
  foreach(i RANGE 1 ${last} 2)
    math(EXPR value_index "${i} + 1")
    string(APPEND text "${separator}${inner}\"${ARGV${i}}\": \"${ARGV${value_index}}\"")
    set(separator ",\n")
  endforeach()
  string(APPEND text "\n${outer}}")
  set(_pmucat_demo_json_${topic} "${text}" PARENT_SCOPE)
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/PmucatDemoEvents.cmake)

# Writes `text` to `file` only when it differs (an unchanged file keeps its time stamp).
function(pmucat_demo_write file text)
  set(old "")
  if(EXISTS ${file})
    file(READ ${file} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${file} "${text}")
  endif()
endfunction()

set(_pmucat_demo_root ${PROJECT_SOURCE_DIR}/fixtures/pmu-events/arch/x86)
pmucat_demo_write(${_pmucat_demo_root}/mapfile.csv "${_pmucat_demo_mapfile}")
foreach(topic IN LISTS _pmucat_demo_topics)
  pmucat_demo_write(${_pmucat_demo_root}/demolake/${topic}.json
                    "${_pmucat_demo_json_${topic}}\n]\n")
endforeach()
