yield in // 
 { else with { ... if or import