/* A toy network driver for tests/e2e/driver_test.py (section 6): the kernel calls every
 * ethtool_ops function and most net_device_ops with rtnl_lock held (docs/drivers.md,
 * kernel/include/linux/rtnetlink.h), and the harness takes it around them:
 *  - toy_set_msglevel / toy_get_msglevel (ethtool) write and read `msg_level` with no lock of
 *    their own: rtnl keeps them apart, no race (set|set, get|set);
 *  - toy_change_mtu (ndo_change_mtu, under rtnl) writes `mtu`, which toy_start_xmit
 *    (ndo_start_xmit, called without rtnl) reads: a race;
 *  - toy_task, a work item, takes rtnl_lock itself before it writes `msg_level`: no race with
 *    the ethtool operations. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/workqueue.h>

static u32 msg_level;
static int mtu;

static u32 toy_get_msglevel(struct net_device *dev) { return msg_level; }

static void toy_set_msglevel(struct net_device *dev, u32 value) { msg_level = value; }

static int toy_change_mtu(struct net_device *dev, int new_mtu) {
  mtu = new_mtu;
  return 0;
}

static netdev_tx_t toy_start_xmit(struct sk_buff *skb, struct net_device *dev) {
  return mtu > 1500 ? NETDEV_TX_BUSY : NETDEV_TX_OK;
}

static void toy_task(struct work_struct *work) {
  rtnl_lock();
  msg_level = 0;
  rtnl_unlock();
}

static DECLARE_WORK(toy_work, toy_task);

static const struct ethtool_ops toy_ethtool_ops = {
    .get_msglevel = toy_get_msglevel,
    .set_msglevel = toy_set_msglevel,
};

static const struct net_device_ops toy_netdev_ops = {
    .ndo_change_mtu = toy_change_mtu,
    .ndo_start_xmit = toy_start_xmit,
};

static int __init toy_net_init(void) { return 0; }

static void __exit toy_net_exit(void) {}

module_init(toy_net_init);
module_exit(toy_net_exit);
