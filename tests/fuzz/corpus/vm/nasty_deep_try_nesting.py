try:
    try:
        try:
            try:
                try:
                    try:
                        try:
                            try:
                                try:
                                    try:
                                        try:
                                            try:
                                                try:
                                                    try:
                                                        try:
                                                            try:
                                                                try:
                                                                    try:
                                                                        try:
                                                                            try:
                                                                                try:
                                                                                    try:
                                                                                        try:
                                                                                            try:
                                                                                                try:
                                                                                                    try:
                                                                                                        try:
                                                                                                            try:
                                                                                                                try:
                                                                                                                    try:
                                                                                                                        try:
                                                                                                                            try:
                                                                                                                                try:
                                                                                                                                    try:
                                                                                                                                        try:
                                                                                                                                            try:
                                                                                                                                                try:
                                                                                                                                                    try:
                                                                                                                                                        try:
                                                                                                                                                            try:
                                                                                                                                                                raise ValueError
                                                                                                                                                            except KeyError:
                                                                                                                                                                pass
                                                                                                                                                        except KeyError:
                                                                                                                                                            pass
                                                                                                                                                    except KeyError:
                                                                                                                                                        pass
                                                                                                                                                except KeyError:
                                                                                                                                                    pass
                                                                                                                                            except KeyError:
                                                                                                                                                pass
                                                                                                                                        except KeyError:
                                                                                                                                            pass
                                                                                                                                    except KeyError:
                                                                                                                                        pass
                                                                                                                                except KeyError:
                                                                                                                                    pass
                                                                                                                            except KeyError:
                                                                                                                                pass
                                                                                                                        except KeyError:
                                                                                                                            pass
                                                                                                                    except KeyError:
                                                                                                                        pass
                                                                                                                except KeyError:
                                                                                                                    pass
                                                                                                            except KeyError:
                                                                                                                pass
                                                                                                        except KeyError:
                                                                                                            pass
                                                                                                    except KeyError:
                                                                                                        pass
                                                                                                except KeyError:
                                                                                                    pass
                                                                                            except KeyError:
                                                                                                pass
                                                                                        except KeyError:
                                                                                            pass
                                                                                    except KeyError:
                                                                                        pass
                                                                                except KeyError:
                                                                                    pass
                                                                            except KeyError:
                                                                                pass
                                                                        except KeyError:
                                                                            pass
                                                                    except KeyError:
                                                                        pass
                                                                except KeyError:
                                                                    pass
                                                            except KeyError:
                                                                pass
                                                        except KeyError:
                                                            pass
                                                    except KeyError:
                                                        pass
                                                except KeyError:
                                                    pass
                                            except KeyError:
                                                pass
                                        except KeyError:
                                            pass
                                    except KeyError:
                                        pass
                                except KeyError:
                                    pass
                            except KeyError:
                                pass
                        except KeyError:
                            pass
                    except KeyError:
                        pass
                except KeyError:
                    pass
            except KeyError:
                pass
        except KeyError:
            pass
    except KeyError:
        pass
except KeyError:
    pass
