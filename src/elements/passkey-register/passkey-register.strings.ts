/**
 * Every visible string of `<passkey-register>`, in English and Arabic; replace any with
 * `setStrings(locale, {...})`. `{name}` marks a placeholder.
 */
import { registerDefaultStrings, type Strings } from '../shared/i18n.ts';

export const passkeyRegisterStrings: Record<'en' | 'ar', Strings> = {
  en: {
    'passkey.heading': 'Add a passkey',
    'passkey.intro': 'Log in with your fingerprint, face or screen lock instead of a code.',
    'passkey.checking': 'Checking what this device supports…',
    'passkey.unsupported': 'This browser cannot create passkeys. Try another browser or device, or keep using your current way to log in.',
    'passkey.roaming-only': 'This device has no built-in passkey support. You can still use a security key or your phone.',
    'passkey.nickname.label': 'Name this passkey',
    'passkey.nickname.help': 'A name helps you tell your passkeys apart, for example “Work laptop”.',
    'passkey.nickname.invalid': 'Give the passkey a name of 1 to 100 characters.',
    'passkey.submit': 'Create passkey',
    'passkey.creating': 'Follow your browser’s prompt to create the passkey…',
    'passkey.login-required': 'Log in to your wallet first: adding a passkey to a wallet that already has a login needs your current session.',
    'passkey.activating': 'Passkey saved. Confirm it once more to log in with it…',
    'passkey.registered': 'Your passkey “{nickname}” is saved, but logging in with it did not finish.',
    'passkey.activate': 'Log in with the passkey',
    'passkey.done': 'Your passkey “{nickname}” is ready, and you are logged in with it.',
    'passkey.another': 'Add another passkey',
  },
  ar: {
    'passkey.heading': 'أضف مفتاح مرور',
    'passkey.intro': 'سجّل الدخول ببصمتك أو وجهك أو قفل الشاشة بدلًا من الرمز.',
    'passkey.checking': 'جارٍ التحقق مما يدعمه هذا الجهاز…',
    'passkey.unsupported': 'لا يستطيع هذا المتصفح إنشاء مفاتيح المرور. جرّب متصفحًا أو جهازًا آخر، أو واصل استخدام طريقة دخولك الحالية.',
    'passkey.roaming-only': 'لا يدعم هذا الجهاز مفاتيح المرور المدمجة. لا يزال بإمكانك استخدام مفتاح أمان أو هاتفك.',
    'passkey.nickname.label': 'سمِّ مفتاح المرور هذا',
    'passkey.nickname.help': 'يساعدك الاسم على التمييز بين مفاتيح المرور، مثل «حاسوب العمل».',
    'passkey.nickname.invalid': 'اختر لمفتاح المرور اسمًا من 1 إلى 100 حرف.',
    'passkey.submit': 'أنشئ مفتاح المرور',
    'passkey.creating': 'اتبع تعليمات المتصفح لإنشاء مفتاح المرور…',
    'passkey.login-required': 'سجّل الدخول إلى محفظتك أولًا: تتطلب إضافة مفتاح مرور إلى محفظة لها طريقة دخول جلستك الحالية.',
    'passkey.activating': 'حُفظ مفتاح المرور. أكّده مرة أخرى لتسجيل الدخول به…',
    'passkey.registered': 'حُفظ مفتاح المرور «{nickname}»، لكن تسجيل الدخول به لم يكتمل.',
    'passkey.activate': 'سجّل الدخول بمفتاح المرور',
    'passkey.done': 'مفتاح المرور «{nickname}» جاهز، وقد سجّلت الدخول به.',
    'passkey.another': 'أضف مفتاح مرور آخر',
  },
};

registerDefaultStrings(passkeyRegisterStrings);
