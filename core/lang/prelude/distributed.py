# torch.distributed for single-process scripts: the package is there (scripts
# import it unconditionally), but no process group is ever initialized, so the
# queries that need one raise PyTorch's error.
_NO_GROUP = ('Default process group has not been initialized, please make sure to call '
             'init_process_group.')


def is_available():
    return True


def is_initialized():
    return False


def is_torchelastic_launched():
    return False


def get_rank(group=None):
    raise ValueError(_NO_GROUP)


def get_world_size(group=None):
    raise ValueError(_NO_GROUP)


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, **kwargs):
    raise RuntimeError('kiln runs a single process: torch.distributed.init_process_group is not supported')


def barrier(group=None, async_op=False, device_ids=None):
    raise ValueError(_NO_GROUP)


def destroy_process_group(group=None):
    raise ValueError(_NO_GROUP)
