// What other areas may use of messages: nothing outside this folder imports another file of it.
export { unreadPerLot } from './messages.listing';
export { presentUnread } from './messages.presenter';
