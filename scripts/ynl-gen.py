#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the kernel's ynl-gen-c.py (tools/net/ynl of linux-source-6.12).

usage: ynl-gen.py YNL_DIR ynl-gen-c.py-arguments...

6.12's nlspec.py takes a subset's attributes from the parent set as they
are, so a request's subset cannot nest another subset (peer-request's sock
as sock-select).  Later kernels let a subset attribute override the parent's
properties (ovpn's *-input sets use it); this applies that one change and
runs the generator unmodified otherwise.
"""
import collections
import runpy
import sys


def main():
    ynl = sys.argv[1]
    sys.path.insert(0, ynl)
    from lib import nlspec

    plain_init = nlspec.SpecAttrSet.__init__

    def subset_init(self, family, yaml):
        if yaml.get('subset-of') is None:
            plain_init(self, family, yaml)
            return
        nlspec.SpecElement.__init__(self, family, yaml)
        self.subset_of = yaml['subset-of']
        self.attrs = collections.OrderedDict()
        self.attrs_by_val = collections.OrderedDict()
        parent = family.attr_sets[self.subset_of]
        for elem in yaml['attributes']:
            orig = parent[elem['name']]
            attr = self.new_attr({**orig.yaml, **elem}, orig.value)
            self.attrs[attr.name] = attr
            self.attrs_by_val[attr.value] = attr

    nlspec.SpecAttrSet.__init__ = subset_init
    gen = ynl + '/ynl-gen-c.py'
    sys.argv = [gen] + sys.argv[2:]
    runpy.run_path(gen, run_name='__main__')


if __name__ == '__main__':
    main()
