s = 'héllo wörld ✓ 😀'
print(len(s), s[1], s[-1], s[::-1], s.upper(), s.split('ö'), s.find('✓'), s.encode if False else 0)
print(ord(s[-1]), [c for c in s][:3], s.center(30, '·'), repr(s), '%s|%5s' % (s[:2], s[1]))
print(f'{s:>25}', s.replace('ö', 'oe'), s.count('l'), s.startswith('hé'), sorted(set(s))[:4])
