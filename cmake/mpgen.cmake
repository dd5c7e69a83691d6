# mpgen_generate(<target> BITS <bits>... OPS <op>... [MUL auto|schoolbook|karatsuba|ntt]
#                [TIER auto|thread|group] [THREADS <t>] [INSTANCES_PER_BLOCK <n>] [TABLE])
# mpgen_generate(<target> MODULUS <p> NAME <name> OPS <op>... [BITS <bits>] [MUL ...] [TABLE])
# mpgen_generate(<target> FIELD <preset> OPS <op>... [BITS <bits>] [MUL ...] [TABLE])
# mpgen_generate(<target> RNS <moduli>... OPS <op>... [TABLE])
# mpgen_generate(<target> GF <k>... OPS <op>...)
# mpgen_generate(<target> SPEC <file.toml> [TABLE])
#
# Generates mpgen's headers for the given sizes and operations at build time, into
# <build>/mpgen/<target> (<build>/mpgen/<target>.<name> for a modulus or a preset,
# <build>/mpgen/<target>.2, .3, ... for the target's second and later calls for sizes), and
# adds them and that include directory to <target>: its sources can then #include
# "mpgen_u<bits>.cuh" (or "mpgen_<name>.cuh", the preset's name as `mpgen --list` shows it;
# a tier other than the size's own adds _<tier>, "mpgen_u2048_group.cuh", and MUL ntt, the
# group tier's products by number-theoretic transform, adds _ntt, "mpgen_u65536_ntt.cuh"
# and namespace mpgen::u65536_ntt, so that a target may hold both kinds of a size, from two
# calls; RNS <n> makes "mpgen_rns<n>.cuh", integers modulo n moduli of 32 bits, into
# <build>/mpgen/<target>.rns; GF <k> makes "mpgen_gf<k>.cuh", the generalized Fermat prime of
# Mohajerani's table 3.1 with that k, into <build>/mpgen/<target>.gf<k>_<k>...; SPEC, a TOML
# spec's sizes, fields, RNS sets and GF fields (docs/generator.md), one generator run for
# them all, into <build>/mpgen/<target>.<the file's name without .toml>). The headers are
# made again when the generator, its templates or the request change, and not otherwise. A
# bad request (unknown operation, impossible size, MUL ntt in the thread tier) fails at
# configure time with mpgen's message.
#
# The folder's manifest (mpgen_manifest.json: every operation's contract) is appended to
# the target's MPGEN_MANIFESTS property. TABLE also builds the modules' entries for the
# runtime's table of built-in operations (mpgen's own runtime uses it).
#
# Needs MPGEN_GENERATOR_DIR (set by mpgen's CMakeLists.txt or its package config) and
# a Python 3 with jinja2 (Python3_EXECUTABLE picks it).
include_guard(GLOBAL)

# mpgen_spec_field(<var> <name> OPS <op>... [MODULUS <p>]) appends a spec's [fields] entry
# (a preset by its name, or any modulus under a name) to the string <var>, for a spec file
# written from it and given to mpgen_generate(<target> SPEC ...).
function(mpgen_spec_field var name)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "MODULUS" "OPS")
  list(JOIN ARG_OPS "\", \"" ops)
  set(modulus "")
  if(ARG_MODULUS)
    set(modulus "modulus = \"${ARG_MODULUS}\", ")
  endif()
  set(${var} "${${var}}${name} = { ${modulus}ops = [\"${ops}\"] }\n" PARENT_SCOPE)
endfunction()

# The command that runs mpgen's generator, as a list, in <var>.
function(mpgen_command var)
  if(NOT Python3_EXECUTABLE)
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
  endif()
  set(${var} ${CMAKE_COMMAND} -E env "PYTHONPATH=${MPGEN_GENERATOR_DIR}" ${Python3_EXECUTABLE} -m mpgen
      PARENT_SCOPE)
endfunction()

function(mpgen_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "TABLE" "MUL;TIER;THREADS;INSTANCES_PER_BLOCK;MODULUS;NAME;FIELD;SPEC"
                        "BITS;OPS;RNS;GF")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mpgen_generate: unknown arguments ${ARG_UNPARSED_ARGUMENTS}; "
                        "allowed: BITS <bits>... OPS <op>... [MUL method] [TIER tier] [THREADS t] "
                        "[INSTANCES_PER_BLOCK n], or MODULUS <p> "
                        "NAME <name> (or FIELD <preset>) OPS <op>... [BITS <bits>] [MUL method], "
                        "or RNS <moduli>... OPS <op>..., or GF <k>... OPS <op>..., or SPEC <file.toml>")
  endif()
  if(ARG_SPEC AND (ARG_OPS OR ARG_BITS OR ARG_MODULUS OR ARG_FIELD OR ARG_RNS OR ARG_GF OR ARG_NAME OR ARG_MUL
                   OR ARG_TIER OR ARG_THREADS OR ARG_INSTANCES_PER_BLOCK))
    message(FATAL_ERROR "mpgen_generate(${target}): SPEC <file.toml> holds the whole request; "
                        "give it alone (TABLE aside)")
  endif()
  if(NOT ARG_SPEC AND (NOT ARG_OPS OR NOT (ARG_BITS OR ARG_MODULUS OR ARG_FIELD OR ARG_RNS OR ARG_GF)
                       OR (ARG_MODULUS AND NOT ARG_NAME)))
    message(FATAL_ERROR "mpgen_generate(${target}): give BITS <bits>... and OPS <op>..., "
                        "or MODULUS <p> NAME <name> (or FIELD <preset>) and OPS <op>..., "
                        "or RNS <moduli>... and OPS <op>..., or GF <k>... and OPS <op>..., or SPEC <file.toml>")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "mpgen_generate: ${target} is not a target")
  endif()
  string(REPLACE ";" "," bits "${ARG_BITS}")
  string(REPLACE ";" "," ops "${ARG_OPS}")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/mpgen/${target}")
  mpgen_command(mpgen)
  set(generate ${mpgen} generate)
  set(spec "")
  if(ARG_OPS)
    list(APPEND generate --ops ${ops})
  endif()
  if(ARG_SPEC)
    get_filename_component(spec "${ARG_SPEC}" ABSOLUTE)
    get_filename_component(spec_name "${spec}" NAME_WE)
    string(APPEND out ".${spec_name}")
    list(APPEND generate --spec ${spec})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")  # its files, named now
  elseif(ARG_MODULUS)
    string(APPEND out ".${ARG_NAME}")
    list(APPEND generate --modulus ${ARG_MODULUS} --name ${ARG_NAME})
  elseif(ARG_FIELD)
    string(APPEND out ".${ARG_FIELD}")
    list(APPEND generate --field ${ARG_FIELD})
  elseif(ARG_RNS)
    string(APPEND out ".rns")
    string(REPLACE ";" "," rns "${ARG_RNS}")
    list(APPEND generate --rns ${rns})
  elseif(ARG_GF)
    string(REPLACE ";" "," gf "${ARG_GF}")
    string(REPLACE ";" "_" gf_dir "${ARG_GF}")
    string(APPEND out ".gf${gf_dir}")  # one folder a call: a target may ask for fields with other ops
    list(APPEND generate --gf ${gf})
  endif()
  if(ARG_BITS)
    list(APPEND generate --bits ${bits})
  endif()
  if(NOT ARG_MODULUS AND NOT ARG_FIELD AND NOT ARG_RNS AND NOT ARG_GF AND NOT ARG_SPEC)  # the target's second call for sizes gets .2, and so on
    get_property(calls TARGET ${target} PROPERTY MPGEN_SIZE_CALLS)
    if(NOT calls)
      set(calls 0)
    endif()
    math(EXPR calls "${calls} + 1")
    set_property(TARGET ${target} PROPERTY MPGEN_SIZE_CALLS ${calls})
    if(calls GREATER 1)
      string(APPEND out ".${calls}")
    endif()
  endif()
  list(APPEND generate --out ${out})
  if(ARG_MUL)
    list(APPEND generate --mul ${ARG_MUL})
  endif()
  foreach(option IN ITEMS TIER THREADS INSTANCES_PER_BLOCK)
    if(ARG_${option})
      string(TOLOWER "--${option}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      list(APPEND generate ${flag} ${ARG_${option}})
    endif()
  endforeach()
  if(ARG_TABLE)
    list(APPEND generate --table)
  endif()

  # Check the request now, and learn the files it makes.
  execute_process(COMMAND ${generate} --dry-run
                  RESULT_VARIABLE failed OUTPUT_VARIABLE outputs ERROR_VARIABLE message
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  if(failed)
    message(FATAL_ERROR "mpgen_generate(${target}):\n ${message}")  # indented: not rewrapped
  endif()
  string(REPLACE "\n" ";" outputs "${outputs}")

  # The request as a file that changes only when the request does.
  file(CONFIGURE OUTPUT "${out}.request" CONTENT "${generate}\n")
  file(GLOB_RECURSE generator_files CONFIGURE_DEPENDS
       "${MPGEN_GENERATOR_DIR}/mpgen/*.py" "${MPGEN_GENERATOR_DIR}/mpgen/data/*"
       "${MPGEN_GENERATOR_DIR}/mpgen/templates/*" "${MPGEN_GENERATOR_DIR}/mpgen/headers/*")
  list(FILTER generator_files EXCLUDE REGEX "/mpgen/runtime/")  # the Python runtime generates nothing
  if(spec)
    set(what "${spec_name}.toml")
  else()
    set(what "${ARG_NAME}${ARG_FIELD}${bits}${rns}${gf} (${ops})")
  endif()
  add_custom_command(OUTPUT ${outputs}
                     COMMAND ${generate}
                     DEPENDS ${generator_files} "${out}.request" ${spec}
                     COMMENT "mpgen: generating ${what} for ${target}"
                     VERBATIM)
  target_sources(${target} PRIVATE ${outputs})
  target_include_directories(${target} PRIVATE "${out}")
  set_property(TARGET ${target} APPEND PROPERTY MPGEN_MANIFESTS "${out}/mpgen_manifest.json")
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    list(FILTER outputs INCLUDE REGEX "\\.cu$")
    set_source_files_properties(${outputs} PROPERTIES LANGUAGE CXX)
  endif()
endfunction()
