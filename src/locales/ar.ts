/**
 * Arabic for every element (`wallet-elements/locales/ar`): importing this module adds the Arabic
 * strings of every element with `setStrings('ar', …)`; an element then speaks Arabic wherever its
 * `lang` (its own or an ancestor's), `setLocale('ar')` or the document's language says so, and
 * lays itself out right to left (elements/shared/i18n.ts). English stays built into each element.
 *
 * Shipped as a module of its own so that pages in other languages do not download it. Import it
 * before your own `setStrings('ar', {...})` overrides: later calls win. Each table is typed with
 * the keys of its English table, so a string added in English and not here fails to compile.
 * Deliberately not here: plural rules or number formats (Intl does those where needed).
 */
import { setStrings } from '../elements/shared/i18n.ts';
import type { SharedStringKey } from '../elements/shared/strings.ts';
import type { WalletLoginStringKey } from '../elements/wallet-login/wallet-login.strings.ts';
import type { PasskeyRegisterStringKey } from '../elements/passkey-register/passkey-register.strings.ts';
import type { WalletCredentialsStringKey } from '../elements/wallet-credentials/wallet-credentials.strings.ts';
import type { CardRevealStringKey } from '../elements/card-reveal/card-reveal.strings.ts';

/** Failure sentences and credential names shared by every element (elements/shared/strings.ts). */
const shared: Record<SharedStringKey, string> = {
  'error.wrong_code': 'الرمز غير صحيح. تحقّق منه وحاول مرة أخرى، أو اطلب رمزًا جديدًا.',
  'error.rate_limited': 'محاولات كثيرة جدًا. انتظر قليلًا ثم حاول مرة أخرى.',
  'error.rate_limited_wait': 'محاولات كثيرة جدًا. انتظر {seconds} ثانية ثم حاول مرة أخرى.',
  'error.cancelled': 'أُلغي الطلب. يمكنك المحاولة مرة أخرى.',
  'error.passkey_unsupported': 'لا يستطيع هذا المتصفح استخدام مفاتيح المرور هنا. استخدم طريقة أخرى أو متصفحًا آخر.',
  'error.passkey_exists': 'يحتفظ هذا الجهاز بالفعل بمفتاح مرور لهذه المحفظة. استخدمه لتسجيل الدخول.',
  'error.passkey_rejected': 'لم يُقبل مفتاح المرور هذا. حاول مرة أخرى أو استخدم طريقة أخرى لتسجيل الدخول.',
  'error.no_credential': 'لا توجد لهذه المحفظة طريقة دخول من هذا النوع بعد. اختر طريقة أخرى.',
  'error.oauth_unavailable': 'تسجيل الدخول عبر مزوّد الهوية غير متاح الآن. جرّب طريقة أخرى.',
  'error.oauth_rejected': 'لم يُقبل تسجيل الدخول عبر مزوّد الهوية. حاول مرة أخرى.',
  'error.login_required': 'سجّل الدخول إلى محفظتك أولًا، ثم حاول مرة أخرى.',
  'error.session_expired': 'انتهت جلستك. سجّل الدخول مرة أخرى للمتابعة.',
  'error.key_missing': 'لم يعد هذا المتصفح يحتفظ بمفتاح جلستك. سجّل الدخول مرة أخرى للمتابعة.',
  'error.signature_rejected': 'تعذّر على المحفظة تأكيد هذا التغيير. سجّل الدخول مرة أخرى ثم أعد المحاولة.',
  'error.last_credential': 'هذه طريقتك الوحيدة لتسجيل الدخول، لذا لا يمكن إزالتها. أضف طريقة أخرى أولًا.',
  'error.credential_exists': 'لدى هذه المحفظة طريقة دخول من هذا النوع بالفعل.',
  'error.invalid_input': 'لم تُقبل بعض البيانات. تحقّق منها وحاول مرة أخرى.',
  'error.forbidden': 'هذا الإجراء غير مسموح به هنا.',
  'error.network': 'تعذّر الوصول إلى خدمة المحفظة. تحقّق من اتصالك وحاول مرة أخرى.',
  'error.unexpected': 'حدث خطأ ما. حاول مرة أخرى بعد قليل.',
  'credential.EMAIL_OTP': 'رمز عبر البريد الإلكتروني',
  'credential.SMS_OTP': 'رمز عبر رسالة نصية',
  'credential.PASSKEY': 'مفتاح المرور',
  'credential.OAUTH': 'الدخول الموحّد',
  'common.cancel': 'إلغاء',
  'common.retry': 'حاول مرة أخرى',
  'common.missing-account': 'يحتاج هذا العنصر إلى معرّف حساب (السمة account-id).',
};

/** `<wallet-login>` */
const walletLogin: Record<WalletLoginStringKey, string> = {
  'login.heading': 'سجّل الدخول إلى محفظتك',
  'login.intro': 'اختر طريقة تسجيل الدخول.',
  'login.methods': 'طرق تسجيل الدخول',
  'login.method.email-otp': 'أرسل لي رمزًا بالبريد الإلكتروني',
  'login.method.sms-otp': 'أرسل لي رمزًا برسالة نصية',
  'login.method.passkey': 'استخدم مفتاح مرور',
  'login.method.oauth': 'المتابعة بالدخول الموحّد',
  'login.autofill.label': 'مفتاح مرور محفوظ',
  'login.autofill.hint': 'يمكن لمتصفحك أن يقترح هنا مفتاح مرور محفوظًا.',
  'login.reauth.expired': 'انتهت جلستك. سجّل الدخول مرة أخرى باستخدام {method}.',
  'login.reauth.key-missing': 'لم يعد هذا المتصفح يحتفظ بمفتاح جلستك. سجّل الدخول مرة أخرى باستخدام {method} للعودة.',
  'login.reauth.other': 'استخدم طريقة أخرى لتسجيل الدخول',
  'login.restoring': 'جارٍ البحث عن جلستك…',
  'login.sending': 'جارٍ إرسال الرمز…',
  'login.code.heading.email-otp': 'تحقّق من بريدك الإلكتروني',
  'login.code.heading.sms-otp': 'تحقّق من هاتفك',
  'login.code.sent.email-otp': 'أرسلنا رمزًا من {length} أرقام إلى البريد الإلكتروني المرتبط بمحفظتك.',
  'login.code.sent.sms-otp': 'أرسلنا رمزًا من {length} أرقام في رسالة نصية إلى الهاتف المرتبط بمحفظتك.',
  'login.code.label': 'الرمز',
  'login.code.submit': 'تسجيل الدخول',
  'login.code.verifying': 'جارٍ التحقق من الرمز…',
  'login.code.resend': 'أرسل رمزًا جديدًا',
  'login.code.resend-wait': 'أرسل رمزًا جديدًا بعد {seconds} ث',
  'login.code.back': 'استخدم طريقة أخرى',
  'login.passkey.waiting': 'اتبع تعليمات المتصفح لاستخدام مفتاح المرور.',
  'login.oauth.waiting': 'في انتظار مزوّد الهوية…',
  'login.session.heading': 'لقد سجّلت الدخول',
  'login.session.detail': 'سجّلت الدخول باستخدام {method}. تستمر جلستك حتى {time}.',
  'login.session.expiring': 'ستنتهي جلستك قريبًا.',
  'login.session.stay': 'ابقَ متصلًا',
  'login.session.logout': 'تسجيل الخروج',
  'login.session.refreshing': 'جارٍ تجديد جلستك…',
  'login.session.logging-out': 'جارٍ تسجيل الخروج…',
  'login.notice.code-sent': 'أُرسل الرمز.',
  'login.notice.logged-in': 'لقد سجّلت الدخول.',
  'login.notice.logged-out': 'لقد سجّلت الخروج.',
  'login.notice.refreshed': 'جُدّدت جلستك.',
};

/** `<passkey-register>` */
const passkeyRegister: Record<PasskeyRegisterStringKey, string> = {
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
};

/** `<wallet-credentials>` */
const walletCredentials: Record<WalletCredentialsStringKey, string> = {
  'credentials.heading': 'طرق تسجيل الدخول',
  'credentials.loading': 'جارٍ تحميل طرق الدخول…',
  'credentials.load-failed': 'تعذّر تحميل طرق الدخول.',
  'credentials.reload': 'حاول مرة أخرى',
  'credentials.this-device': 'هذا الجهاز',
  'credentials.remove': 'إزالة',
  'credentials.remove-label': 'إزالة {name}',
  'credentials.block.last': 'هذه طريقتك الوحيدة لتسجيل الدخول، لذا لا يمكن إزالتها. أضف طريقة أخرى أولًا.',
  'credentials.block.current': 'أنت مسجّل الدخول بهذه الطريقة هنا. سجّل الدخول بطريقة أخرى لإزالتها.',
  'credentials.block.login': 'سجّل الدخول لإجراء التغييرات.',
  'credentials.add.heading': 'أضف طريقة لتسجيل الدخول',
  'credentials.add.SMS_OTP': 'أضف الرموز عبر الرسائل النصية',
  'credentials.add.OAUTH': 'أضف الدخول الموحّد',
  'credentials.add.SMS_OTP.exists': 'تتلقى هذه المحفظة الرموز عبر الرسائل النصية بالفعل.',
  'credentials.add.OAUTH.missing': 'الدخول الموحّد غير مُعدّ في هذه الصفحة.',
  'credentials.code.label': 'الرمز المرسل برسالة نصية',
  'credentials.code.help': 'أدخل الرمز لإكمال إضافة الرموز عبر الرسائل النصية.',
  'credentials.code.submit': 'تأكيد',
  'credentials.sessions.heading': 'الجلسات النشطة',
  'credentials.sessions.none': 'لا توجد جلسات نشطة.',
  'credentials.sessions.until': 'حتى {time}',
  'credentials.sessions.end': 'إنهاء الجلسة',
  'credentials.sessions.end-label': 'إنهاء جلسة {name}',
  'credentials.sessions.logout': 'تسجيل الخروج هنا',
  'credentials.email.heading': 'البريد الإلكتروني',
  'credentials.email.label': 'البريد الإلكتروني الجديد',
  'credentials.email.submit': 'احفظ البريد الإلكتروني',
  'credentials.email.invalid': 'أدخل بريدًا إلكترونيًا مثل name@example.com.',
  'credentials.confirm.credential': 'إزالة «{name}»؟ لن تتمكن من تسجيل الدخول بها بعد الآن، وستنتهي جلساتها.',
  'credentials.confirm.session': 'إنهاء هذه الجلسة؟ سيُسجَّل خروج الجهاز الذي يحملها.',
  'credentials.confirm.own-session': 'تسجيل الخروج على هذا الجهاز؟',
  'credentials.confirm.yes': 'نعم، تابع',
  'credentials.notice.added': 'أُضيفت طريقة: {type}.',
  'credentials.notice.code-sent': 'أُرسل الرمز.',
  'credentials.notice.activated': 'أصبحت طريقة {type} جاهزة للاستخدام.',
  'credentials.notice.credential-revoked': 'أُزيلت.',
  'credentials.notice.session-revoked': 'انتهت الجلسة.',
  'credentials.notice.own-session-revoked': 'سجّلت الخروج على هذا الجهاز.',
  'credentials.notice.email-updated': 'حُفظ البريد الإلكتروني.',
};

/** `<card-reveal>` */
const cardReveal: Record<CardRevealStringKey, string> = {
  'card-reveal.label': 'تفاصيل البطاقة',
  'card-reveal.show': 'إظهار تفاصيل البطاقة',
  'card-reveal.show-again': 'إظهار مرة أخرى',
  'card-reveal.loading': 'جارٍ تحميل تفاصيل البطاقة…',
  'card-reveal.hide': 'إخفاء',
  'card-reveal.retry': 'إعادة المحاولة',
  'card-reveal.countdown': 'تختفي بعد {time}',
  'card-reveal.countdown-label': 'الوقت المتبقي قبل إخفاء تفاصيل البطاقة',
  'card-reveal.frame-title': 'رقم بطاقتك وتاريخ انتهائها ورمز الأمان',
  'card-reveal.placeholder-number': 'رقم البطاقة',
  'card-reveal.placeholder-expiry': 'تنتهي في',
  'card-reveal.placeholder-cvv': 'رمز الأمان',
  'card-reveal.expired': 'أُخفيت تفاصيل البطاقة لانتهاء صلاحية العرض الآمن. أظهرها مرة أخرى إن كنت لا تزال بحاجة إليها.',
  'card-reveal.revealed': 'تظهر تفاصيل البطاقة الآن، وستختفي تلقائيًا.',
  'card-reveal.no-card': 'لم يتم اختيار أي بطاقة.',
  'card-reveal.hidden.user': 'أُخفيت تفاصيل البطاقة.',
  'card-reveal.hidden.expired': 'أُخفيت تفاصيل البطاقة: انتهت صلاحية العرض الآمن.',
  'card-reveal.hidden.timeout': 'أُخفيت تفاصيل البطاقة بعد انقضاء المهلة.',
  'card-reveal.hidden.page-hidden': 'أُخفيت تفاصيل البطاقة أثناء ابتعادك عن هذه الصفحة.',
  'card-reveal.hidden.disconnected': 'أُخفيت تفاصيل البطاقة.',
  'card-reveal.hidden.card-changed': 'أُخفيت تفاصيل البطاقة لأنه تم اختيار بطاقة أخرى.',
  'card-reveal.error.unauthorized': 'تعذّر عرض تفاصيل البطاقة الآن بسبب مشكلة في الإعداد لدينا. يُرجى التواصل مع الدعم.',
  'card-reveal.error.forbidden': 'لا يمكن عرض تفاصيل هذه البطاقة في هذه الجلسة. سجّل الدخول إلى حسابك لرؤيتها.',
  'card-reveal.error.session_required': 'لحمايتك، أكّد هويتك: سجّل الدخول إلى محفظتك مرة أخرى ثم أعد المحاولة.',
  'card-reveal.error.not_found': 'لم نعثر على هذه البطاقة. ربما تم استبدالها أو إغلاقها.',
  'card-reveal.error.not_available': 'تفاصيل البطاقة غير متاحة في هذه البيئة.',
  'card-reveal.error.rate_limited': 'طلبات كثيرة جدًا. انتظر قليلًا ثم أعد المحاولة.',
  'card-reveal.error.server': 'حدث خطأ من جهتنا. أعد المحاولة بعد قليل.',
  'card-reveal.error.network': 'تعذّر الوصول إلى الخادم. تحقّق من اتصالك ثم أعد المحاولة.',
  'card-reveal.error.expired_url': 'انتهت صلاحية العرض الآمن قبل فتحه. أعد المحاولة.',
  'card-reveal.error.insecure_url': 'لم تُعرض تفاصيل البطاقة لأن العرض الآمن لم يأتِ من عنوان موثوق.',
  'card-reveal.error.unexpected': 'حدث أمر غير متوقع أثناء تحميل تفاصيل البطاقة. أعد المحاولة.',
};

/** Every Arabic string, by key. */
export const ar = { ...shared, ...walletLogin, ...passkeyRegister, ...walletCredentials, ...cardReveal };

setStrings('ar', ar);
