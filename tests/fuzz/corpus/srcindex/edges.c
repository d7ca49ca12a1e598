#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
void f(void)
{
	pr_err("a %px\n"
	       " b %016lx\n", p, v);
	pr_err(DRV "x %d", 1);
	pr_err("cut %px
", p);
#define M(x) printk("m %pS", x)
	printk(KERN_CONT "%px", q);
}
unreferenced object 0xffff8882d78c9ea0 (size 96):
a ffffffff81000000
