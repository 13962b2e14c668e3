# logging: levels, the logger hierarchy and propagation, handlers writing to
# a StringIO or stdout, Formatter fields, basicConfig and the module-level
# functions (the stderr output of the default configuration is not compared).
import io
import logging
import sys

buf = io.StringIO()
handler = logging.StreamHandler(buf)
handler.setFormatter(logging.Formatter('%(levelname)s|%(name)s|%(message)s'))
app = logging.getLogger('app')
app.addHandler(handler)
app.setLevel(logging.INFO)
app.debug('hidden %d', 1)
app.info('shown %d + %s', 2, 'x')
app.warning('careful: %(what)s', {'what': 'dict args'})
app.error('bad')
app.critical('worse')
app.log(25, 'custom level')
child = logging.getLogger('app.model')
child.info('from the child')
child.propagate = False
child.info('not propagated, no handler: to lastResort? no, level is INFO < WARNING')
print(buf.getvalue(), end='')
print(app.getEffectiveLevel(), child.getEffectiveLevel(), logging.getLogger().getEffectiveLevel())
print(app.isEnabledFor(logging.DEBUG), app.isEnabledFor(logging.INFO), child.parent is app, app.parent is logging.root)
print(logging.getLogger('app') is app, logging.getLogger() is logging.root, logging.getLogger('root') is logging.root)
print(repr(app), repr(logging.root), repr(child), repr(handler))
print(logging.getLevelName(logging.WARNING), logging.getLevelName(10), logging.getLevelName(25), logging.getLevelName('ERROR'))
print(logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL, logging.NOTSET, logging.WARN, logging.FATAL)

mid = logging.getLogger('a.b.c')
top = logging.getLogger('a')
print(mid.parent is top, logging.getLogger('a.b').parent is top, mid.parent.name)

out = logging.StreamHandler(sys.stdout)
out.setFormatter(logging.Formatter('[%(levelname)-8s] %(name)s:%(lineno)d %(funcName)s %(filename)s %(module)s: %(message)s'))
log = logging.getLogger('train')
log.addHandler(out)
log.setLevel('DEBUG')
log.debug('step %d loss %.3f', 10, 0.12345)
out.setLevel(logging.WARNING)
log.info('filtered by the handler')
log.warning('kept by the handler')
log.removeHandler(out)

try:
    logging.getLogger('x').setLevel('LOUD')
except ValueError as e:
    print('ValueError:', e)

logging.basicConfig(level=logging.INFO, format='%(levelname)s - %(message)s', stream=sys.stdout)
logging.info('root info %s', 'via basicConfig')
logging.debug('root debug hidden')
logging.warning('root warning')
logging.getLogger('svc').info('child of the configured root')
logging.basicConfig(level=logging.DEBUG, format='ignored: %(message)s')
logging.debug('still hidden: basicConfig did nothing the second time')
logging.basicConfig(level=logging.DEBUG, format='forced: %(message)s', stream=sys.stdout, force=True)
logging.debug('now shown')
logging.disable(logging.INFO)
logging.info('disabled')
logging.warning('above the disable level')
logging.disable(logging.NOTSET)
null = logging.getLogger('quiet')
null.addHandler(logging.NullHandler())
null.propagate = False
null.error('swallowed')
print('done')
