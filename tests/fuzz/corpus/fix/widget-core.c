// SPDX-License-Identifier: GPL-2.0
/* Written for kleakscan's fuzz-fix seeds: calls the fixer rewrites. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/printk.h>

struct widget {
	void *base;
	unsigned long flags;
};

void widget_probe(struct widget *w)
{
	pr_info("base at %px\n", w->base);
	printk(KERN_CONT "%px", w);
}

void widget_map(struct widget *w, void *map, int field)
{
	pr_info("map at 0x%08lx, flags %lu\n", (unsigned long)map,
		w->flags);
	printk("sp %0*lx\n", field, (unsigned long)map);
	pr_err("a %px "
	       "b %px\n", w, map);
}

static ssize_t base_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct widget *w = dev_get_drvdata(dev);

	return sysfs_emit(buf, "widget base %08lx\n", (unsigned long)w->base);
}

static int w_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%px\n", v);
	return 0;
}
