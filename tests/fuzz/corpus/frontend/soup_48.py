, 
	 2.5 async return del := while { as while - else ... del ] ... ... . not with global : := = from except \
 yield is ( * { for except -