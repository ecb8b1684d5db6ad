# The suite's driver, as Tcl packages write it: run every *.test file.
package require tcltest
namespace import ::tcltest::*
configure -testdir [file dirname [file normalize [info script]]] {*}$argv
runAllTests
