# shutil: the file and directory operations scripts use (copying, moving,
# removing trees), as CPython's module does them over os. File metadata
# (modes, times) is not copied: copy2 and copystat copy contents only.

import os

__all__ = ["copyfileobj", "copyfile", "copy", "copy2", "copytree", "rmtree", "move", "Error", "SameFileError"]


class Error(OSError):
    pass


class SameFileError(Error):
    pass


def copyfileobj(fsrc, fdst, length=0):
    fdst.write(fsrc.read())


def copyfile(src, dst, *, follow_symlinks=True):
    if os.path.abspath(src) == os.path.abspath(dst):
        raise SameFileError('{!r} and {!r} are the same file'.format(src, dst))
    with open(src, 'rb') as fsrc:
        data = fsrc.read()
    with open(dst, 'wb') as fdst:
        fdst.write(data)
    return dst


def copy(src, dst, *, follow_symlinks=True):
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src))
    copyfile(src, dst)
    return dst


copy2 = copy


def copytree(src, dst, symlinks=False, ignore=None, copy_function=copy2, ignore_dangling_symlinks=False,
             dirs_exist_ok=False):
    names = os.listdir(src)
    ignored = ignore(os.fspath(src), names) if ignore is not None else set()
    os.makedirs(dst, exist_ok=dirs_exist_ok)
    for name in names:
        if name in ignored:
            continue
        s, d = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(s):
            copytree(s, d, symlinks, ignore, copy_function, ignore_dangling_symlinks, dirs_exist_ok)
        else:
            copy_function(s, d)
    return dst


def rmtree(path, ignore_errors=False, onerror=None):
    def handle(func, p, exc):
        if ignore_errors:
            return
        if onerror is None:
            raise exc
        onerror(func, p, (type(exc), exc, None))

    try:
        names = os.listdir(path)
    except OSError as e:
        handle(os.listdir, path, e)
        return
    for name in names:
        full = os.path.join(path, name)
        if os.path.isdir(full):
            rmtree(full, ignore_errors, onerror)
        else:
            try:
                os.remove(full)
            except OSError as e:
                handle(os.remove, full, e)
    try:
        os.rmdir(path)
    except OSError as e:
        handle(os.rmdir, path, e)


def move(src, dst, copy_function=copy2):
    real_dst = dst
    if os.path.isdir(dst):
        real_dst = os.path.join(dst, os.path.basename(src.rstrip(os.sep)))
        if os.path.exists(real_dst):
            raise Error("Destination path '" + real_dst + "' already exists")
    os.rename(src, real_dst)
    return real_dst

